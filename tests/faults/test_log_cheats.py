"""The operator's cheats against the witnessed log, caught (issue 25), on both stores. The test
is the operator: with direct access to the store it drops a finished game, rewrites one (cuts
its ending), and abandons a dealt game after its commitment; each time a player's receipt from
the log, kept when seated and when the game ended, becomes evidence that `cardledger verify
--evidence` proves offline against the log's key alone. (A fork is caught by a witness process:
tests/api/witnessed_log/test_witness_process.py.)"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from litestar.testing import TestClient

from service.application import Cardledger
from service.http.app import create_app
from service.settings import Settings
from service.tools.cli import main
from tests.support.client import Api


def delete_events(ledger: Cardledger, game_id: str, from_version: int = 1) -> None:
    """The operator's hand in the store: the game's events from ``from_version`` on, gone."""
    store: Any = ledger.store
    table = store.recorder.events_table_name
    if store.postgres:
        name = f'"{store.recorder.datastore.schema}"."{table}"'
        key: Any = UUID(game_id)
        sql = f"DELETE FROM {name} WHERE originator_id = %s AND originator_version >= %s"
    else:
        key = UUID(game_id).hex
        sql = f"DELETE FROM {table} WHERE originator_id = ? AND originator_version >= ?"
    store.transact(lambda cursor: cursor.execute(sql, (key, from_version)))


@contextlib.contextmanager
def restarted(settings: Settings) -> Iterator[TestClient[Any]]:
    """The service started again on the tampered store (nothing cached from before)."""
    ledger = Cardledger(settings)
    try:
        with TestClient(create_app(settings, ledger)) as client:
            yield client
    finally:
        ledger.close()


def evidence_of(receipt: dict[str, Any], at: int, served: str | None) -> dict[str, Any]:
    """A game on record: the receipt's checkpoint, its entry ``at`` with its inclusion proof,
    and what the service serves of the game now."""
    logged = receipt["entries"][at]
    return {
        "kind": "game-on-record",
        "checkpoint": receipt["checkpoint"],
        "index": logged["index"],
        "entry": logged["entry"],
        "inclusion_proof": logged["inclusion_proof"],
        "served": served,
    }


def verify(api: Api, tmp_path: Path, evidence: dict[str, Any]) -> int:
    path = tmp_path / "evidence.json"
    path.write_text(json.dumps(evidence))
    return main(["verify", "--log-key", api.ledger.log.reads.key(), "--evidence", str(path)])


def test_a_dropped_game_is_caught_by_its_players_receipt(
    api: Api, settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = api.started(2)
    api.play_to_end(game_id)
    receipt = api.keep_log_receipt(game_id, 2)
    assert verify(api, tmp_path, evidence_of(receipt, 1, None)) == 0, "evidence of a game"
    delete_events(api.ledger, game_id)
    with restarted(settings) as client:
        assert client.get(f"/games/{game_id}").status_code == 404, "the game is gone"
    capsys.readouterr()
    assert verify(api, tmp_path, evidence_of(receipt, 1, None)) == 0
    assert "on record" in capsys.readouterr().out


def test_a_rewritten_game_is_caught_by_its_players_receipt(
    api: Api, settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = api.started(2)
    honest = api.play_to_end(game_id)
    receipt = api.keep_log_receipt(game_id, 2)
    exported = api.client.get(f"/games/{game_id}/export", headers=api.admin()).text
    assert verify(api, tmp_path, evidence_of(receipt, 1, exported)) == 1, "no cheat yet"
    delete_events(api.ledger, game_id, honest["version"])  # the ending cut off
    with restarted(settings) as client:
        served = client.get(f"/games/{game_id}/export", headers=api.admin())
        assert served.status_code == 200, served.text
    capsys.readouterr()
    assert verify(api, tmp_path, evidence_of(receipt, 1, served.text)) == 0
    assert "rewritten" in capsys.readouterr().out


def test_an_abandoned_deal_is_caught_by_the_receipt_kept_when_seated(
    api: Api, settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = api.started(2)  # dealt: the operator has seen the cards
    receipt = api.keep_log_receipt(game_id, 1)
    assert "game-created" in receipt["entries"][0]["entry"]
    delete_events(api.ledger, game_id)  # abandoned, as if never dealt
    with restarted(settings) as client:
        assert client.get(f"/games/{game_id}").status_code == 404
    capsys.readouterr()
    assert verify(api, tmp_path, evidence_of(receipt, 0, None)) == 0
    assert "on record" in capsys.readouterr().out
