"""Materialized lobby, scoreboards and leaderboard: exactly once, and rebuilt identically."""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import psycopg
import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent
from litestar.testing import TestClient

from domain.variants import event_types
from service.application import Cardledger
from service.application.queries import FRESH_WITHIN
from service.http.app import create_app
from service.read_models.models import ReadModels
from service.settings import NO_LIMITS, Settings
from service.store.postgres.listener import conninfo
from service.tools.cli import main
from tests.conftest import ADMIN_TOKEN
from tests.support.client import Api
from tests.support.threads import at_once


def snapshot(api: Api) -> tuple[object, object, object]:
    lobby = api.client.get("/games").json()
    boards = {
        entry["game_id"]: api.client.get(f"/games/{entry['game_id']}/scoreboard").json()
        for entry in lobby
    }
    leaderboard = api.client.get("/leaderboard").json()
    return lobby, boards, leaderboard


def finished_games(api: Api, count: int) -> list[str]:
    games = []
    for _ in range(count):
        game_id = api.started(3)
        api.play_to_end(game_id)
        games.append(game_id)
    return games


def test_leaderboard_counts_every_finished_game_once(api: Api) -> None:
    games = finished_games(api, 3)
    api.started(3)  # running: not counted
    rows = {
        row["player_id"]: row
        for row in api.client.get("/leaderboard?variant=open-hand").json()[0]["rows"]
    }
    assert len(rows) == 3
    assert all(row["games"] == 3 for row in rows.values())
    wins = sum(row["wins"] for row in rows.values())
    winners = sum(len(api.client.get(f"/games/{g}").json()["winners"]) for g in games)
    assert wins == winners
    assert sum(row["points"] for row in rows.values()) == 3 * 5
    ranks = [
        row["rank"] for row in api.client.get("/leaderboard?variant=open-hand").json()[0]["rows"]
    ]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    everything = api.client.get("/leaderboard").json()
    assert {board["variant"] for board in everything} >= {
        "open-hand",
        "heartbeat",
        "cancellation-hearts",
    }
    refused = api.client.get("/leaderboard?variant=poker")
    assert (refused.status_code, refused.json()["code"]) == (422, "unknown_variant")


def test_scoreboard_is_served_from_the_read_model(api: Api) -> None:
    game_id = api.started(2)
    before = api.client.get(f"/games/{game_id}/scoreboard").json()
    assert before["status"] == "active" and before["rows"] == []
    api.play_to_end(game_id)
    after = api.client.get(f"/games/{game_id}/scoreboard").json()
    assert after["status"] == "finished" and len(after["rows"]) == 5
    missing = api.client.get("/games/00000000-0000-4000-8000-000000000000/scoreboard")
    assert (missing.status_code, missing.json()["code"]) == (404, "game_not_found")


def test_rebuild_from_position_zero_gives_identical_read_models(quiet_api: Api) -> None:
    api = quiet_api
    finished_games(api, 2)
    api.started(2)
    api.create(2)
    models = api.ledger.read_models
    models.catch_up()
    before = snapshot(api)
    models.reset()
    assert models.position() == 0
    assert snapshot(api) != before
    models.catch_up()
    assert snapshot(api) == before


def test_racing_runners_count_exactly_once(quiet_api: Api) -> None:
    api = quiet_api
    finished_games(api, 2)
    api.ledger.read_models.catch_up()
    expected = snapshot(api)
    runners = [ReadModels(api.ledger.store, capacity=100) for _ in range(4)]
    runners[0].reset()
    at_once([runner.catch_up for runner in runners])
    assert snapshot(api) == expected


def test_a_runner_behind_another_finds_the_position_moved_and_counts_nothing_twice(
    quiet_api: Api,
) -> None:
    """Its compare-and-set fails the whole transaction (nothing of its batch is written), and
    it reads the position again."""
    api = quiet_api
    behind = api.ledger.read_models
    ahead = ReadModels(api.ledger.store, capacity=100)
    finished_games(api, 1)
    behind.catch_up()
    finished_games(api, 1)
    ahead.catch_up()
    expected = snapshot(api)
    assert behind.catch_up() == 0  # its batch was the one counted already
    assert snapshot(api) == expected
    assert behind.position() == api.ledger.store.last_position()


def test_a_row_that_breaks_a_constraint_is_not_taken_for_a_moved_position(
    quiet_api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The error is raised, not retried for ever as if another runner had moved the position."""
    api = quiet_api
    models = api.ledger.read_models
    store = api.ledger.store
    write_games = models.tables.write_games
    monkeypatch.setattr(
        models.tables,
        "write_games",
        lambda cursor, rows: write_games(
            cursor, [msgspec.structs.replace(row, entry=None) for row in rows]
        ),
    )
    attempts = []
    transact_at_once = store.transact_at_once

    def counted(work: Any) -> Any:
        attempts.append(1)
        assert len(attempts) <= 2, "retried as if the position had moved"
        return transact_at_once(work)

    monkeypatch.setattr(store, "transact_at_once", counted)
    api.started(2)
    with pytest.raises(IntegrityError):
        models.catch_up()
    assert models.position() == 0


def test_the_projector_reads_its_position_only_when_it_does_not_know_it(
    quiet_api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = quiet_api
    models = api.ledger.read_models
    finished_games(api, 1)
    models.catch_up()
    reads = []
    stored = models.tables.position
    monkeypatch.setattr(models.tables, "position", lambda: reads.append(1) or stored())
    finished_games(api, 1)
    assert models.catch_up() > 0
    assert reads == [], "its last batch's compare-and-set told it where the position is"
    assert models.catch_up() == 0  # nothing new: it forgets, and the next step asks again
    models.catch_up()
    assert reads == [1]


def test_a_position_reset_elsewhere_is_followed_within_a_poll(quiet_api: Api) -> None:
    api = quiet_api
    finished_games(api, 1)
    projector = api.ledger.read_models
    projector.catch_up()
    expected = snapshot(api)
    elsewhere = ReadModels(api.ledger.store, capacity=100)
    elsewhere.reset()  # a rebuild in another process, stopped before it caught up
    projector.catch_up()  # from where it moved it: nothing there, so it forgets that
    projector.catch_up()
    assert snapshot(api) == expected
    finished_games(api, 1)
    elsewhere.reset()
    projector.catch_up()  # its compare-and-set fails: it reads the position again
    assert projector.position() == api.ledger.store.last_position()
    assert snapshot(api) != expected


def test_the_projector_command_rebuilds_in_its_own_process(
    quiet_api: Api,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    api = quiet_api
    finished_games(api, 1)
    api.ledger.read_models.catch_up()
    before = snapshot(api)
    api.ledger.read_models.reset()
    monkeypatch.setenv("CARDLEDGER_DATA_DIR", str(settings.data_dir))
    if settings.database_url:
        monkeypatch.setenv("CARDLEDGER_DATABASE_URL", settings.database_url)
    else:
        monkeypatch.delenv("CARDLEDGER_DATABASE_URL", raising=False)
    assert main(["project", "--rebuild", "--once"]) == 0
    applied = int(capsys.readouterr().out.split("rebuilt from position 0: ")[1].split()[0])
    game_events = api.ledger.store.recorder.select_notifications(
        0, 10_000, topics=tuple(event_types()), inclusive_of_start=False
    )
    assert applied == len(game_events)
    assert snapshot(api) == before


@pytest.fixture
def postgres_api(postgres_url: str, tmp_path: Path) -> Iterator[Api]:
    """An app on PostgreSQL only: SQLite has no other sessions to hold it."""
    settings = Settings(
        database_url=postgres_url, data_dir=tmp_path, admin_token=ADMIN_TOKEN, limits=NO_LIMITS
    )
    ledger = Cardledger(settings)
    try:
        with TestClient(create_app(settings, ledger)) as client:
            api = Api(client, ledger)
            api.register(1)
            yield api
    finally:
        ledger.close()


def _session(api: Api) -> psycopg.Connection[Any]:
    url = api.ledger.settings.database_url
    assert url is not None
    return psycopg.connect(conninfo(url))  # not autocommit: it begins a transaction


def test_a_session_left_open_in_the_same_database_does_not_freeze_the_lobby(
    postgres_api: Api,
) -> None:
    """A forgotten psql (``BEGIN; SELECT txid_current();``) held the old horizon, the
    cluster's oldest transaction, for as long as it stayed open: new games reached the lobby
    only after it ended."""
    api = postgres_api
    stray = _session(api)
    try:
        stray.execute("SELECT txid_current()")
        started = time.monotonic()
        game_id = api.create(3)
        lobby = api.client.get("/games").json()
        assert game_id in [entry["game_id"] for entry in lobby]
        assert time.monotonic() - started < FRESH_WITHIN  # no read waited out its bound
    finally:
        stray.close()


class Recorded(logging.Handler):
    """The records one logger emits while attached (pytest's logging plugin is off here)."""

    def __init__(self, name: str) -> None:
        super().__init__(logging.WARNING)
        self.logger = logging.getLogger(name)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())

    def __enter__(self) -> Recorded:
        self.logger.addHandler(self)
        return self

    def __exit__(self, *_: object) -> None:
        self.logger.removeHandler(self)


def test_a_writer_left_open_delays_reads_by_a_bound_and_is_named(postgres_api: Api) -> None:
    """A transaction that wrote to the events table and stays open holds every reader of the
    log below it (an event it may still commit must not be skipped). Reads answer after
    FRESH_WITHIN with the rows as they stand, and /metrics and the log say who holds them."""
    api = postgres_api
    before = api.create(3)
    recorder = api.ledger.store.recorder
    writer = _session(api)
    try:
        event = StoredEvent(
            originator_id=uuid.uuid4(), originator_version=1, topic="t", state=b"{}"
        )
        with writer.cursor() as cursor:
            cursor.execute(recorder.insert_sql(1), recorder.insert_parameters([event]))
        after = api.create(3)
        started = time.monotonic()
        with Recorded("cardledger.read_models") as logged:
            lobby = [entry["game_id"] for entry in api.client.get("/games").json()]
        waited = time.monotonic() - started
        assert before in lobby and after not in lobby  # as the rows stood: nothing skipped
        assert FRESH_WITHIN <= waited < FRESH_WITHIN + 10  # bounded, with room for a slow host
        pid = str(writer.info.backend_pid)
        assert any(pid in message for message in logged.messages), logged.messages
        metrics = api.client.get("/metrics", headers=api.admin()).text
        held = re.search(r"^cardledger_log_held_seconds (\S+)$", metrics, re.MULTILINE)
        assert held is not None and float(held.group(1)) >= FRESH_WITHIN
    finally:
        writer.rollback()
        writer.close()
    lobby = [entry["game_id"] for entry in api.client.get("/games").json()]
    assert after in lobby  # released: the read side catches up at once
    metrics = api.client.get("/metrics", headers=api.admin()).text
    assert re.search(r"^cardledger_log_held_seconds 0\.0$", metrics, re.MULTILINE)
