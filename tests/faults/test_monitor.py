"""`cardledger monitor` against the operator's cheats, on both stores (issue 25): an honest log
gives no finding; a dropped game, a rewritten one, an abandoned deal, a game kept but whose end
the log withholds, and a forked log (an old entry changed in the store, the tree rehashed and
signed again with the log's key) each give a finding and evidence that `cardledger verify
--evidence` proves."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from litestar.testing import TestClient

from projections.transparency.merkle import Tree
from projections.transparency.monitor import game_evidence, listed_games
from projections.transparency.notes import Checkpoint, Policy
from projections.transparency.tiles import bundle_entries
from service.settings import Settings
from service.store.log_tables import StoredCheckpoint
from service.tools.cli import main
from service.tools.monitor import Monitor
from tests.faults.test_log_cheats import delete_events, restarted
from tests.support.client import Api


def monitor_round(api: Api, client: TestClient[Any], tmp_path: Path, **options: Any) -> list[str]:
    policy = Policy(api.ledger.log.signer.verifier(), (), 0)
    monitor = Monitor(client, policy, tmp_path / "state", tmp_path / "evidence", **options)
    return monitor.round()


def proven(api: Api, tmp_path: Path) -> int:
    """How many evidence files `cardledger verify` proves (each must)."""
    key = api.ledger.log.reads.key()
    files = sorted((tmp_path / "evidence").glob("*.json"))
    for path in files:
        assert main(["verify", "--log-key", key, "--evidence", str(path)]) == 0, path.read_text()
    return len(files)


def honest_games(api: Api) -> tuple[str, str, str]:
    """A finished game, a cancelled one and one being played, all under a checkpoint."""
    finished = api.started(2)
    api.play_to_end(finished)
    cancelled = api.create(2)
    answer = api.client.post(f"/games/{cancelled}/cancel", headers=api.auth(0))
    assert answer.status_code == 200, answer.text
    playing = api.started(2)
    for game_id, entries in ((finished, 2), (cancelled, 2), (playing, 1)):
        api.keep_log_receipt(game_id, entries)
    return finished, cancelled, playing


def test_the_monitor_finds_nothing_in_an_honest_log_and_each_cheat_after(
    api: Api, settings: Settings, tmp_path: Path
) -> None:
    finished, cancelled, playing = honest_games(api)
    assert monitor_round(api, api.client, tmp_path) == []
    assert monitor_round(api, api.client, tmp_path) == [], "a second round from its state"
    delete_events(api.ledger, finished)
    delete_events(api.ledger, cancelled, 2)  # the cancellation cut off
    delete_events(api.ledger, playing)  # a dealt game abandoned
    with restarted(settings) as client:
        findings = monitor_round(api, client, tmp_path)
    assert any(f"game {finished} is on record but gone: a dropped game" in f for f in findings)
    assert any(f"game {cancelled} no longer ends as on record" in f for f in findings)
    assert any(f"game {playing} is on record but gone: an abandoned deal" in f for f in findings)
    assert len(findings) == 3, findings
    assert proven(api, tmp_path) == 3


def test_the_monitor_finds_a_game_over_whose_end_the_log_withholds(
    api: Api, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    finished, _, _ = honest_games(api)
    kept = api.started(2)  # dealt and on record: the operator has seen the cards
    api.keep_log_receipt(kept, 1)
    api.client.app.state.background.sequencer.stop()  # the operator logs no more: no end
    api.play_to_end(kept)
    ticks = itertools.count()

    def clock() -> float:  # the monitor's clock: a second a reading
        return float(next(ticks))

    def round_with(end_grace: float) -> list[str]:
        return monitor_round(api, api.client, tmp_path, end_grace=end_grace, clock=clock)

    assert round_with(0) == [], "first seen over: noted, not yet judged"
    assert round_with(3600) == [], "within the grace"
    findings = round_with(0)
    assert len(findings) == 1, findings
    assert f"game {kept} is finished but the log holds no end of it" in findings[0]
    assert proven(api, tmp_path) == 1
    # The same evidence of an honest game proves nothing: its end is in the signed tree.
    state = tmp_path / "state"
    entries = bundle_entries((state / "entries.bin").read_bytes())
    created = listed_games(entries)[UUID(finished)].created
    assert created is not None
    served = api.client.get(f"/games/{finished}/export").text
    honest = game_evidence(
        (state / "checkpoint.txt").read_text(), entries, created[0], served, later=True
    )
    path = tmp_path / "honest.json"
    path.write_text(json.dumps(honest))
    key = api.ledger.log.reads.key()
    capsys.readouterr()
    assert main(["verify", "--log-key", key, "--evidence", str(path)]) == 1
    assert "the signed tree holds the game's end" in capsys.readouterr().out


def test_the_monitor_proves_a_fork_of_the_log(api: Api, tmp_path: Path) -> None:
    honest_games(api)
    assert monitor_round(api, api.client, tmp_path) == []
    tables = api.ledger.log.tables
    latest = tables.latest_checkpoint()
    assert latest is not None
    size = latest.size
    entries = tables.entries(0, size)
    entries[0] = entries[0].replace(b"open-hand", b"open-hane")
    forked = Tree()
    for entry in entries:
        forked.append(entry)
    signer = api.ledger.log.signer
    checkpoint = Checkpoint(signer.name, size, forked.root())
    note = checkpoint.text() + "\n" + signer.sign(checkpoint)
    sql = tables._sql  # the operator knows its own tables

    def fork(cursor: Any) -> None:
        cursor.execute(sql("UPDATE {entries} SET entry = {p} WHERE idx = 0"), (entries[0],))
        cursor.execute(sql("DELETE FROM {nodes}"))
        cursor.execute(sql("DELETE FROM {checkpoints} WHERE size = {p}"), (size,))
        nodes = [
            (level, index, hashed)
            for level, row in enumerate(forked.levels)
            for index, hashed in enumerate(row)
        ]
        tables.append(cursor, [], nodes)
        tables.keep_checkpoint(cursor, StoredCheckpoint(size, note, latest.signed_at))

    api.ledger.store.transact(fork)
    findings = monitor_round(api, api.client, tmp_path)
    assert any("does not extend" in finding for finding in findings), findings
    assert any("do not make the signed root" in finding for finding in findings), findings
    assert proven(api, tmp_path) == 1
