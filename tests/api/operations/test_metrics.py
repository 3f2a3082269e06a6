"""Metrics an operator can scrape at /metrics."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import msgspec
import psycopg
import pytest
from eventsourcing.persistence import IntegrityError
from litestar.testing import TestClient
from prometheus_client.parser import text_string_to_metric_families
from psycopg.sql import SQL

from service.application import Cardledger
from service.http.app import create_app
from service.settings import NO_LIMITS, Settings
from service.store.postgres.listener import conninfo
from service.store.unit_of_work import MAX_ATTEMPTS
from tests.api.games.test_concurrency import lockstep, race
from tests.support.client import Api
from tests.support.threads import wait_until

COMMANDS = "cardledger_commands_total"
REFUSALS = "cardledger_command_refusals_total"
LAG_EVENTS = "cardledger_projection_lag_events"
LAG_SECONDS = "cardledger_projection_lag_seconds"


class Scrape:
    """One scrape of /metrics: its samples by name and labels (None: no such sample)."""

    def __init__(self, api: Api) -> None:
        response = api.client.get("/metrics")
        assert response.status_code == 200
        self.text = response.text
        self.samples = {
            (sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(response.text)
            for sample in family.samples
        }

    def __call__(self, name: str, **labels: str) -> float | None:
        return self.samples.get((name, frozenset(labels.items())))


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def first_play(api: Api, game_id: str, seat: int) -> dict[str, Any]:
    return next(c for c in api.view(game_id, seat)["legal_commands"] if c["type"] == "play")


def test_metrics_count_requests_and_problems(api: Api) -> None:
    game_id = api.started(2)
    waiting = next(s for s in (0, 1) if s not in api.view(game_id)["to_act"])
    card = api.view(game_id, waiting)["hand"][0]
    api.command(game_id, waiting, {"type": "play", "card": card})  # not_your_turn
    scraped = api.client.get("/metrics")
    assert scraped.status_code == 200
    assert scraped.headers["content-type"].startswith("text/plain")
    text = scraped.text
    assert 'cardledger_problems_total{code="not_your_turn",status="409"} 1.0' in text
    assert 'route="/games/{game_id}/commands",status="409"' in text
    assert "cardledger_http_request_seconds_bucket" in text
    assert 'cardledger_held{what="games"}' in text


def test_a_refused_sign_in_is_counted_and_carries_the_common_headers(api: Api) -> None:
    """A token that names nobody is refused before the route runs: the answer is still counted
    by route and status, and carries the headers every answer does."""
    game_id = api.started(2)
    refused = api.client.get(
        f"/games/{game_id}/view", headers={"Authorization": "Bearer nobody-" + uuid4().hex}
    )
    assert refused.status_code == 401
    assert refused.json()["code"] == "unauthorized"
    assert "Cardledger-Instance" in refused.headers
    counted = {
        (sample.labels["route"], sample.labels["status"]): sample.value
        for family in text_string_to_metric_families(api.client.get("/metrics").text)
        if family.name == "cardledger_http_requests"
        for sample in family.samples
        if sample.name == "cardledger_http_requests_total"
    }
    assert counted.get(("/games/{game_id}/view", "401")) == 1.0


def test_commands_are_counted_by_variant_command_and_outcome(api: Api) -> None:
    game_id = api.started(2)
    leader = api.view(game_id)["to_act"][0]
    play = first_play(api, game_id, leader)
    key = {"Idempotency-Key": "once"}
    assert api.command(game_id, leader, play, **key).status_code == 200
    assert api.command(game_id, leader, play, **key).status_code == 200  # its retry
    assert api.command(game_id, leader, play).status_code == 409  # not_your_turn
    assert api.command(game_id, leader, {"type": "dance"}).status_code == 422
    chess = api.client.post("/games", json={"variant": "chess", "seats": 2}, headers=api.auth(0))
    assert chess.status_code == 422
    assert api.ledger.commands.expire(UUID(game_id)) == 0  # open-hand has no deadline to apply

    scraped = Scrape(api)
    counted = {
        ("open-hand", "create", "applied"): 1,
        ("open-hand", "join", "applied"): 1,
        ("open-hand", "play", "applied"): 1,
        ("open-hand", "play", "replayed"): 1,
        ("open-hand", "play", "refused"): 1,
        ("open-hand", "unknown", "refused"): 1,
        ("open-hand", "expire", "unchanged"): 1,
        ("unknown", "create", "refused"): 1,
    }
    for (variant, command, outcome), count in counted.items():
        labels = {"variant": variant, "command": command, "outcome": outcome}
        assert scraped(COMMANDS, **labels) == count, labels
    assert sum(v for (name, _), v in scraped.samples.items() if name == COMMANDS) == 8
    assert scraped(REFUSALS, variant="open-hand", code="not_your_turn") == 1
    assert scraped(REFUSALS, variant="open-hand", code="unknown_command") == 1
    assert scraped(REFUSALS, variant="unknown", code="unknown_variant") == 1
    assert scraped("cardledger_problems_total", status="409", code="not_your_turn") == 1


def test_decisions_made_again_are_counted_as_retries(api: Api, settings: Settings) -> None:
    game_id = api.started(3)
    with lockstep(api.ledger, 2):
        votes = race(
            lambda: api.command(game_id, 1, {"type": "vote_cancel"}),
            lambda: api.command(game_id, 2, {"type": "vote_cancel"}),
        )
    assert [vote.status_code for vote in votes] == [200, 200]

    # Another process moves the game on: this one's copy is behind when the next seat plays.
    leader = api.view(game_id)["to_act"][0]
    play = first_play(api, game_id, leader)
    elsewhere = Cardledger(settings)
    try:
        seats = [elsewhere.players.authenticate(token) for token in api.tokens]
        elsewhere.commands.send(seats[leader], UUID(game_id), play, idempotency=None, if_match=None)
        queries = elsewhere.queries
        following = queries.view_in(queries.read_public(None, UUID(game_id))).to_act[0]
        view = msgspec.to_builtins(queries.view_in(queries.read(seats[following], UUID(game_id))))
    finally:
        elsewhere.close()
    reply = next(c for c in view["legal_commands"] if c["type"] == "play")
    assert api.command(game_id, following, reply).status_code == 200

    scraped = Scrape(api)
    assert scraped("cardledger_retries_total", kind="version_conflict") == 1
    assert scraped("cardledger_retries_total", kind="stale_copy") == 1
    applied = {"variant": "open-hand", "outcome": "applied"}
    assert scraped(COMMANDS, command="vote_cancel", **applied) == 2
    assert scraped(COMMANDS, command="play", **applied) == 1  # the other process counts its own


def test_a_command_given_up_after_conflicts_is_counted_contended(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = api.started(2)
    leader = api.view(game_id)["to_act"][0]
    play = first_play(api, game_id, leader)

    def always_taken(*args: object, **kwargs: object) -> None:
        raise IntegrityError("the version is taken")  # as if another writer always won

    monkeypatch.setattr(api.ledger.store, "save", always_taken)
    answer = api.command(game_id, leader, play)
    assert (answer.status_code, answer.json()["code"]) == (503, "too_much_contention")
    scraped = Scrape(api)
    contended = {"variant": "open-hand", "command": "play", "outcome": "contended"}
    assert scraped(COMMANDS, **contended) == 1
    assert scraped("cardledger_retries_total", kind="version_conflict") == MAX_ATTEMPTS


@contextmanager
def writes_held_up(settings: Settings, ledger: Cardledger) -> Iterator[None]:
    """Another connection holds what a write needs until the block ends: SQLite's write lock,
    or a lock on PostgreSQL's events table (reads go on)."""
    if settings.database_url is None:
        other = sqlite3.connect(settings.data_dir / settings.sqlite_file, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()
        return
    with psycopg.connect(conninfo(settings.database_url)) as other:
        other.execute(SQL("LOCK TABLE {} IN EXCLUSIVE MODE").format(ledger.store.writer.table))
        try:
            yield
        finally:
            other.rollback()


def test_store_failures_are_counted_by_kind(settings: Settings, api: Api) -> None:
    # The usual store timeout, which the held write waits out. A shorter one (it was a second)
    # held every other store call of the test to it too, on a busy host not only the write's:
    # making the tables, starting the app, the setup's requests.
    game_id = api.started(2)
    leader = api.view(game_id)["to_act"][0]
    play = first_play(api, game_id, leader)
    with writes_held_up(settings, api.ledger):
        answer = api.command(game_id, leader, play)
    assert (answer.status_code, answer.json()["code"]) == (503, "store_unavailable")
    scraped = Scrape(api)
    assert scraped(COMMANDS, variant="open-hand", command="play", outcome="failed") == 1
    assert scraped("cardledger_problems_total", status="503", code="store_unavailable") == 1
    errors = "cardledger_store_errors_total"
    if settings.database_url is None:
        assert (scraped(errors, kind="write_lock_timeout") or 0) >= 1
        assert (scraped("cardledger_retries_total", kind="write_lock_wait") or 0) >= 1
    else:  # the statement was sent and cut short: whether it took effect is unknown
        assert (scraped(errors, kind="outcome_unknown") or 0) >= 1


def test_open_live_streams_are_counted(api: Api) -> None:
    game_id = api.started(2)

    async def open_then_closed() -> tuple[float | None, float | None]:
        stream = api.live.stream(None, UUID(game_id), 0)
        await anext(stream)  # its first event is out: the stream follows the game
        open_now = Scrape(api)("cardledger_live_streams")
        await stream.aclose()
        return open_now, Scrape(api)("cardledger_live_streams")

    assert Scrape(api)("cardledger_live_streams") == 0
    assert asyncio.run(open_then_closed()) == (1, 0)


def test_projection_lag_is_what_the_readers_have_yet_to_take(settings: Settings) -> None:
    quiet = msgspec.structs.replace(settings, projector="external")  # read models move when told
    clock = Clock()
    ledger = Cardledger(quiet, clock=clock)
    with TestClient(create_app(quiet, ledger)) as client:
        api = Api(client, ledger)
        game_id = api.started(2)
        clock.now += timedelta(minutes=1)
        behind = Scrape(api)
        assert behind(LAG_EVENTS, reader="read_models") == api.view(game_id)["version"]
        assert behind(LAG_SECONDS, reader="read_models") == 60  # since the game was created

        def caught_up() -> bool:
            # Up to PostgreSQL's read horizon, which a transaction anywhere in the cluster (another
            # test run's) can hold back for a while: so again until there.
            ledger.read_models.catch_up()
            return Scrape(api)(LAG_EVENTS, reader="read_models") == 0

        wait_until(caught_up, "the read models caught up")
        assert Scrape(api)(LAG_SECONDS, reader="read_models") == 0

        wait_until(
            lambda: Scrape(api)(LAG_EVENTS, reader="log_follower") == 0,
            "the log follower caught up",
        )
        assert Scrape(api)(LAG_SECONDS, reader="log_follower") == 0


def test_the_background_workers_are_seen_alive(api: Api) -> None:
    scraped = Scrape(api)
    workers = ["log-follower", "deadline-watcher", "bot-driver", "read-models"]
    workers += ["queue-follower", "bot-fill"]
    if api.ledger.settings.database_url is not None:
        workers.append("pg-listener")
    for worker in workers:
        assert scraped("cardledger_worker_alive", worker=worker) == 1, worker
        assert scraped("cardledger_worker_failing", worker=worker) == 0, worker
        assert scraped("cardledger_worker_failures_total", worker=worker) == 0, worker


def test_metrics_are_open_unless_a_token_is_set() -> None:
    assert Settings.from_env({}).metrics_token is None
    assert Settings.from_env({"CARDLEDGER_METRICS_TOKEN": "s3cret"}).metrics_token == "s3cret"


def test_a_metrics_token_keeps_every_other_scrape_out(tmp_path: Path) -> None:
    token = "scrape-" + uuid4().hex
    settings = Settings(data_dir=tmp_path, limits=NO_LIMITS, metrics_token=token)
    with TestClient(create_app(settings)) as client:
        player = client.post("/players", json={"name": "Ann"}).json()["token"]
        refused = [
            client.get("/metrics", headers=headers)
            for headers in (
                {},
                {"Authorization": "Bearer wrong"},
                {"Authorization": f"Bearer {token[:-1]}"},
                {"Authorization": f"Basic {token}"},
                {"Authorization": f"Bearer {player}"},  # a player's token is not the operator's
            )
        ]
        allowed = client.get("/metrics", headers={"Authorization": f"Bearer {token}"})
    for answer in refused:
        assert answer.status_code == 401
        assert answer.headers["content-type"] == "application/problem+json"
        assert answer.headers["WWW-Authenticate"] == "Bearer"
        assert answer.json()["code"] == "unauthorized"
        assert "cardledger_" not in answer.text
    assert allowed.status_code == 200
    assert "cardledger_process" in allowed.text
    assert 'cardledger_problems_total{code="unauthorized",status="401"} 5.0' in allowed.text
