"""`cardledger witness` as a process of its own beside a `cardledger serve` process, on both
stores (issue 25): the service sends each checkpoint to the witness, which cosigns it; the
served checkpoint and a player's receipt carry the cosignature and `cardledger verify --policy`
accepts them; a checkpoint the operator forks (signed with the log's key, another tree of one
size) is refused, kept, and `cardledger verify --evidence` proves the split view from it."""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from cryptography.hazmat.primitives.serialization import load_pem_private_key

from projections.transparency.merkle import Tree
from projections.transparency.notes import Checkpoint, Policy, SignedNote, Signer, Verifier
from projections.transparency.tiles import bundle_entries
from projections.transparency.witness import AddCheckpoint
from service.application import Cardledger
from service.settings import Settings
from service.tools.cli import main
from tests.support.servers import (
    free_port,
    server_process,
    start_process,
    stop_process,
    wait_until_ready,
)
from tests.support.threads import BOUND


@contextlib.contextmanager
def witness_process(data_dir: Path, log_key: str) -> Iterator[tuple[str, Verifier]]:
    """`cardledger witness` on a free port; its URL and verifier key (GET /key)."""
    port = free_port()
    command = [
        *(sys.executable, "-m", "service.tools.cli", "witness", "--name", "witness.test"),
        *("--port", str(port), "--data-dir", str(data_dir), "--log-key", log_key),
    ]
    log = data_dir.parent / f"witness-{port}.log"
    data_dir.mkdir(parents=True, exist_ok=True)
    process = start_process(command, env={}, log=log)
    url = f"http://127.0.0.1:{port}"
    try:
        give_up = time.monotonic() + BOUND
        while True:
            with contextlib.suppress(httpx.TransportError):
                answer = httpx.get(f"{url}/key", timeout=2)
                if answer.status_code == 200:
                    break
            assert process.poll() is None and time.monotonic() < give_up, log.read_text()
            time.sleep(0.05)
        yield url, Verifier.parse(answer.text)
    finally:
        stop_process(process)


def new_game(http: httpx.Client, auth: dict[str, str]) -> str:
    created = http.post("/games", json={"variant": "open-hand", "seats": 2}, headers=auth)
    assert created.status_code == 201, created.text
    return str(created.json()["game_id"])


def cosigned(http: httpx.Client, policy: Policy, at_least: int) -> str:
    """The served checkpoint once the policy accepts it and it covers ``at_least`` entries."""
    give_up = time.monotonic() + BOUND
    while True:
        answer = http.get("/log/checkpoint")
        if answer.status_code == 200:
            note = SignedNote.parse(answer.text)
            with contextlib.suppress(ValueError):
                policy.accept(note)
                if note.checkpoint.size >= at_least:
                    return answer.text
        assert time.monotonic() < give_up, f"no cosigned checkpoint of {at_least}: {answer.text}"
        time.sleep(0.05)


@pytest.mark.timeout(240)
def test_a_witness_process_cosigns_the_log_and_catches_a_fork(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(database_url=settings.database_url, data_dir=tmp_path)
    ledger = Cardledger(settings)  # makes the log's key and tables before the processes start
    log_key = ledger.log.reads.key()
    ledger.close()
    with contextlib.ExitStack() as running:
        url, witness_key = running.enter_context(witness_process(tmp_path / "w", log_key))
        monkeypatch.setenv("CARDLEDGER_WITNESSES", f"{witness_key.text()} {url}")
        server = running.enter_context(server_process(settings, tmp_path))
        wait_until_ready(server.base, server.process)
        http = running.enter_context(httpx.Client(base_url=server.base, timeout=10))
        policy = Policy(Verifier.parse(log_key), (witness_key,), 1)
        token = http.post("/players", json={"name": "Ann"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        games = [new_game(http, auth) for _ in range(3)]
        first = cosigned(http, policy, 3)
        games.append(new_game(http, auth))
        later = cosigned(http, policy, 4)
        assert SignedNote.parse(later).checkpoint.size > SignedNote.parse(first).checkpoint.size
        policy_file = tmp_path / "policy.txt"
        policy_file.write_text(f"log {log_key}\nwitness {witness_key.text()}\nquorum 1\n")
        give_up = time.monotonic() + BOUND
        while True:  # the receipt stands against a cosigned checkpoint once there is one
            receipt = http.get(f"/games/{games[-1]}/log").json()
            with contextlib.suppress(ValueError):
                policy.accept(SignedNote.parse(receipt["checkpoint"]))
                break
            assert time.monotonic() < give_up, receipt
            time.sleep(0.05)
        (tmp_path / "receipt.json").write_text(json.dumps(receipt))
        verify = ["verify", "--policy", str(policy_file)]
        assert main([*verify, "--log-receipt", str(tmp_path / "receipt.json")]) == 0
        text, _, lines = receipt["checkpoint"].partition("\n\n")
        log_line = f"\u2014 {Verifier.parse(log_key).name} "
        receipt["checkpoint"] = f"{text}\n\n{lines.splitlines()[0]}\n"  # the log's line alone
        assert receipt["checkpoint"].split("\n\n")[1].startswith(log_line)
        (tmp_path / "stripped.json").write_text(json.dumps(receipt))
        assert main([*verify, "--log-receipt", str(tmp_path / "stripped.json")]) == 1

        monitor = ["monitor", "--url", server.base, "--once", "--policy", str(policy_file)]
        assert main([*monitor, "--state", str(tmp_path / "monitor")]) == 0

        # The operator forks: another tree of the size the witness holds, signed with the key.
        held = SignedNote.parse(later).checkpoint
        size = held.size
        entries = bundle_entries(http.get(f"/log/tile/entries/000.p/{size}").content)
        forked = Tree()
        for index, entry in enumerate(entries):
            forked.append(entry.replace(b"open-hand", b"open-hane") if index == 0 else entry)
        key = load_pem_private_key((tmp_path / "log-key.pem").read_bytes(), password=None)
        signer = Signer(held.origin, key)  # type: ignore[arg-type]
        checkpoint = Checkpoint(held.origin, size, forked.root())
        note = checkpoint.text() + "\n" + signer.sign(checkpoint)
        refused = httpx.post(
            f"{url}/add-checkpoint", content=AddCheckpoint(size, (), note).text().encode()
        )
        assert refused.status_code == 422, refused.text
        conflicts = httpx.get(f"{url}/conflicts").json()
        assert conflicts and conflicts[-1]["offered"] == note
        evidence = tmp_path / "evidence.json"
        evidence.write_text(
            json.dumps({"kind": "split-view", "first": conflicts[-1]["held"], "second": note})
        )
        assert main(["verify", "--log-key", log_key, "--evidence", str(evidence)]) == 0
