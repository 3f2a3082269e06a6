"""`cardledger verify` checks the witnessed log offline, on both stores: a game's receipt from
the log against the log's key, and a newer checkpoint's consistency with an older one; an
altered entry, proof, key or checkpoint is refused (exit 1), an unreadable file is exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from projections.transparency.notes import Signer
from service.tools.cli import main
from tests.api.witnessed_log.test_witnessed_log import signed
from tests.support.client import Api


def saved(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


def test_verify_checks_a_receipt_and_consistency_offline(
    api: Api, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = api.started(2)
    api.play_to_end(game_id)
    older = signed(api, 2).text()
    api.create(2)
    newer = signed(api, 3)
    size = newer.checkpoint.size
    receipt = api.client.get(f"/games/{game_id}/log").json()
    assert receipt["tree_size"] == size
    proof = api.client.get(f"/log/consistency?from=2&to={size}").text
    key = saved(tmp_path / "key", api.client.get("/log/key").text)
    files = {
        "--log-receipt": saved(tmp_path / "receipt.json", json.dumps(receipt)),
        "--older": saved(tmp_path / "older", older),
        "--consistency": saved(tmp_path / "proof.json", proof),
    }
    everything = ["verify", "--log-key", key, *(x for pair in files.items() for x in pair)]
    assert main(everything) == 0
    out = capsys.readouterr().out
    assert "OK       receipt: 2 entries in the tree of 3" in out
    assert "OK       consistency: the tree of 3 extends the one of 2" in out

    altered = json.loads(json.dumps(receipt))
    altered["entries"][1]["entry"] = altered["entries"][1]["entry"].replace("finished", "cancelled")
    files["--log-receipt"] = saved(tmp_path / "altered.json", json.dumps(altered))
    assert main(["verify", "--log-key", key, "--log-receipt", files["--log-receipt"]]) == 1
    assert "FAILED   log:" in capsys.readouterr().out

    forked = json.loads(proof)
    forked["proof"][0] = forked["proof"][-1][::-1]
    bad_proof = saved(tmp_path / "forked.json", json.dumps(forked))
    receipt_file = saved(tmp_path / "receipt.json", json.dumps(receipt))
    run = ["verify", "--log-key", key, "--log-receipt", receipt_file, "--older"]
    assert main([*run, files["--older"], "--consistency", bad_proof]) == 1

    origin = newer.checkpoint.origin
    other_key = Signer(origin, Ed25519PrivateKey.generate()).verifier().text()
    assert main(["verify", "--log-key", other_key, "--log-receipt", receipt_file]) == 1
    assert main(["verify", "--log-key", "not a key", "--log-receipt", receipt_file]) == 2
    assert main(["verify", "--log-key", key, "--log-receipt", str(tmp_path / "none")]) == 2
