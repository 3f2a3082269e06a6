"""Audit, export and offline verification; tampered bundles are caught by the exact check."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from domain.chain import GENESIS
from service.tools.cli import main
from tests.support.client import Api, served_event_hash


def rehash(bundle: dict[str, Any]) -> dict[str, Any]:
    """What a forger would do: renumber and re-link every event after editing the log."""
    previous = GENESIS
    for version, event in enumerate(bundle["events"], start=1):
        event["version"] = version
        event["prev_hash"] = previous
        event["hash"] = previous = served_event_hash(bundle["game_id"], event, previous)
    return bundle


@pytest.fixture
def finished(api: Api) -> tuple[str, dict[str, Any]]:
    game_id = api.started(3, {"first_leader": "high_card"})
    api.play_to_end(game_id)
    response = api.client.get(f"/games/{game_id}/export")
    assert response.status_code == 200, response.text
    return game_id, response.json()


def verify(tmp_path: Path, bundle: dict[str, Any], *receipts: str) -> tuple[int, str]:
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle))
    args = ["verify", str(path)]
    for receipt in receipts:
        args += ["--receipt", receipt]
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        code = main(args)
    return code, output.getvalue()


def failing(output: str) -> list[str]:
    return [line.split()[1].rstrip(":") for line in output.splitlines() if line.startswith("FAIL")]


def test_a_finished_game_audits_valid(api: Api, finished: tuple[str, dict[str, Any]]) -> None:
    game_id, _ = finished
    report = api.client.get(f"/games/{game_id}/audit").json()
    assert report["verdict"] == "valid", report
    names = [check["name"] for check in report["checks"]]
    assert names == ["chain", "seed_commitment", "decisions", "deals", "scores", "final_head"]
    assert all(check["status"] == "pass" for check in report["checks"])


def test_a_running_game_says_what_is_pending(api: Api) -> None:
    game_id = api.started(2)
    report = api.client.get(f"/games/{game_id}/audit").json()
    assert report["verdict"] == "pending"
    statuses = {check["name"]: check["status"] for check in report["checks"]}
    assert statuses["chain"] == "pass"
    assert statuses["seed_commitment"] == statuses["decisions"] == "pending"
    refused = api.client.get(f"/games/{game_id}/export", headers=api.auth(0))
    assert (refused.status_code, refused.json()["code"]) == (409, "game_not_over")
    assert api.client.get(f"/games/{game_id}/export", headers=api.admin()).status_code == 200


def test_the_untouched_bundle_verifies_offline_with_the_console_script(
    tmp_path: Path, finished
) -> None:
    _, bundle = finished
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle))
    result = subprocess.run(
        [sys.executable, "-m", "service.tools.cli", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "verdict: valid" in result.stdout


def test_receipts(tmp_path: Path, finished) -> None:
    _, bundle = finished
    event = bundle["events"][10]
    good = f"{event['version']}:{event['hash']}"
    bad = f"{event['version']}:{'0' * 64}"
    assert verify(tmp_path, bundle, good)[0] == 0
    code, output = verify(tmp_path, bundle, bad)
    assert code == 1 and failing(output) == ["receipt"]


def first_index(bundle: dict[str, Any], kind: str) -> int:
    return next(i for i, e in enumerate(bundle["events"]) if e["type"] == kind)


def test_a_flipped_card_breaks_the_chain(tmp_path: Path, finished) -> None:
    _, bundle = finished
    forged = copy.deepcopy(bundle)
    index = first_index(forged, "CardPlayed")
    card = forged["events"][index]["payload"]["card"]
    forged["events"][index]["payload"]["card"] = "2S" if card != "2S" else "3S"
    code, output = verify(tmp_path, forged)
    assert code == 1 and failing(output)[0] == "chain"
    assert f"chain: event {index + 1} was altered" in output


def test_a_dropped_event_breaks_the_chain(tmp_path: Path, finished) -> None:
    _, bundle = finished
    forged = copy.deepcopy(bundle)
    del forged["events"][5]
    code, output = verify(tmp_path, forged)
    assert code == 1 and failing(output)[0] == "chain"
    assert "chain: event 6 is missing or out of order" in output


def test_swapped_events_break_the_chain(tmp_path: Path, finished) -> None:
    _, bundle = finished
    forged = copy.deepcopy(bundle)
    events = forged["events"]
    events[7], events[8] = events[8], events[7]
    code, output = verify(tmp_path, forged)
    assert code == 1 and failing(output)[0] == "chain"
    assert "chain: event 8 is missing or out of order" in output


def test_a_changed_score_is_caught_even_with_a_rebuilt_chain(tmp_path: Path, finished) -> None:
    _, bundle = finished
    forged = copy.deepcopy(bundle)
    final = forged["events"][-1]["payload"]
    final["scores"] = [final["scores"][0] + 1, *final["scores"][1:]]
    assert failing(verify(tmp_path, forged)[1])[0] == "chain"
    code, output = verify(tmp_path, rehash(forged))
    assert code == 1
    assert "decisions" in failing(output) and "scores" in failing(output)
    assert "chain" not in failing(output)


def test_a_replaced_seed_is_caught(tmp_path: Path, finished) -> None:
    _, bundle = finished
    forged = copy.deepcopy(bundle)
    forged["events"][-1]["payload"]["seed"] = "ab" * 32
    code, output = verify(tmp_path, rehash(forged))
    assert code == 1 and failing(output)[0] == "seed_commitment"


def test_a_forged_deal_is_caught_by_re_deriving_it(tmp_path: Path, finished) -> None:
    _, bundle = finished
    forged = copy.deepcopy(bundle)
    index = first_index(forged, "HandDealt")
    hands = forged["events"][index]["payload"]["hands"]
    hands[0]["value"][0], hands[1]["value"][0] = hands[1]["value"][0], hands[0]["value"][0]
    code, output = verify(tmp_path, rehash(forged))
    assert code == 1 and failing(output)[:2] == ["decisions", "deals"]
    assert f"decisions: event {index + 1} is not what the rules produce" in output


def test_an_illegal_move_is_caught(tmp_path: Path, finished) -> None:
    _, bundle = finished
    forged = copy.deepcopy(bundle)
    index = first_index(forged, "CardPlayed")
    event = forged["events"][index]
    seat = event["payload"]["seat"]
    other = (seat + 1) % 3
    dealt = forged["events"][first_index(forged, "HandDealt")]["payload"]["hands"]
    stolen = dealt[other]["value"][-1]
    event["payload"]["card"] = stolen
    event["command"]["value"]["card"] = stolen
    code, output = verify(tmp_path, rehash(forged))
    assert code == 1 and failing(output)[0] == "decisions"
    assert f"event {index + 1} breaks the rules: {stolen} is not in your hand" in output


def test_unreadable_bundles_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "junk.json"
    path.write_text("{}")
    assert main(["verify", str(path)]) == 2
