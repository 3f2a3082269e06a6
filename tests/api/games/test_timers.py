"""Deadlines are applied by the servers themselves: on time, and exactly once among several."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import msgspec

from domain.perspective import Perspective
from service.application import Cardledger
from service.application.queries import view_of
from service.auth import Principal
from service.background.work import BackgroundWork
from service.settings import Settings
from tests.support.servers import running_server
from tests.support.threads import wait_until

ATTEMPTS = 40  # each new game opens on Pressure with probability 1/4
ADMIN = "timers-admin-token"


def pressure_game(http: httpx.Client, auth: list[dict[str, str]]) -> tuple[str, datetime]:
    """A Heartbeat game whose first round is a Pressure round, and that round's deadline."""
    options = {"tempo_deck": 12, "pressure_seconds": 5}
    for _ in range(ATTEMPTS):
        created = http.post(
            "/games", json={"variant": "heartbeat", "seats": 2, "options": options}, headers=auth[0]
        )
        game_id = created.json()["game_id"]
        view = http.post(f"/games/{game_id}/join", headers=auth[1]).json()["view"]
        if view["table"]["tempo"] == "pressure":
            return game_id, datetime.fromisoformat(view["deadline"])
        http.post(f"/games/{game_id}/cancel", headers={"Authorization": f"Bearer {ADMIN}"})
    raise AssertionError("no game opened on a Pressure round")


def timeouts(http: httpx.Client, game_id: str) -> list[dict[str, Any]]:
    events = http.get(f"/games/{game_id}/events", params={"limit": 500}).json()["events"]
    return [event for event in events if event["type"] == "ChoiceTimedOut"]


def test_two_servers_apply_a_pressure_timeout_once_and_on_time(
    settings: Settings, tmp_path: Path
) -> None:
    settings = Settings(database_url=settings.database_url, data_dir=tmp_path, admin_token=ADMIN)
    with (
        running_server(settings, tmp_path) as first,
        running_server(settings, tmp_path) as second,
        httpx.Client(base_url=first, timeout=10) as http,
    ):
        tokens = [http.post("/players", json={"name": n}).json()["token"] for n in ("Ann", "Ben")]
        auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
        game_id, deadline = pressure_game(http, auth)
        # Nobody chooses. Watch for the server's timeout event (how late it was recorded is
        # checked below, from its timestamp: this bound only turns a hang into a failure).
        wait_until(lambda: timeouts(http, game_id), "a timeout event")
        time.sleep(0.5)  # give the other server every chance to apply it again
        with httpx.Client(base_url=second, timeout=10) as other:
            assert len(timeouts(other, game_id)) == 1
        recorded = timeouts(http, game_id)
        assert len(recorded) == 1
        # When the server recorded it (what a load-free client would have seen at once).
        applied = datetime.fromisoformat(recorded[0]["timestamp"])
        assert deadline <= applied and (applied - deadline).total_seconds() < 1.0
        assert recorded[0]["actor"] == "server"
        versions = [
            e["version"]
            for e in http.get(f"/games/{game_id}/events", params={"limit": 500}).json()["events"]
        ]
        assert versions == list(range(1, len(versions) + 1))


def pressure_game_in_process(ledger: Cardledger, who: list[Principal]) -> tuple[UUID, datetime]:
    options = {"tempo_deck": 12, "pressure_seconds": 5}
    for _ in range(ATTEMPTS):
        created = ledger.commands.create(
            who[0], variant="heartbeat", seats=2, options=options, client_seed="", idempotency=None
        )
        game_id = UUID(created.game_id)
        view = ledger.commands.join(who[1], game_id, client_seed="", idempotency=None).view
        if view.deadline is not None:
            return game_id, view.deadline
    raise AssertionError("no game opened on a Pressure round")


def two_players(ledger: Cardledger) -> list[Principal]:
    players = [ledger.players.register(name) for name in ("Ann", "Ben")]
    return [Principal(player_id=p.player_id, name=p.name) for p in players]


def test_a_new_watcher_learns_deadlines_from_the_read_models_and_the_log(
    settings: Settings,
) -> None:
    now = [datetime(2026, 11, 30, 12, 0, tzinfo=UTC)]
    ledger = Cardledger(settings, clock=lambda: now[0])
    try:
        who = two_players(ledger)
        first, first_deadline = pressure_game_in_process(ledger, who)
        ledger.read_models.catch_up()
        second, second_deadline = pressure_game_in_process(ledger, who)  # only in the log
        work = BackgroundWork(ledger)
        work.follower.step()
        assert work.follower.position == ledger.store.recorder.max_notification_id()
        # The first from its read-model row, the second from the event that started it.
        assert work.watcher.deadlines == {first: first_deadline, second: second_deadline}
        assert work.watcher.step() == 0
        now[0] = max(first_deadline, second_deadline)
        assert work.watcher.step() == 2
        for game_id, deadline in ((first, first_deadline), (second, second_deadline)):
            timed_out = [
                e
                for e in ledger.queries.events_in(
                    ledger.queries.read(None, game_id), after=0, limit=500
                ).events
                if e.type == "ChoiceTimedOut"
            ]
            assert len(timed_out) == 1 and timed_out[0].timestamp == now[0] >= deadline
    finally:
        ledger.close()


def test_a_late_command_s_batch_marks_the_expiry_s_events_as_stored(settings: Settings) -> None:
    """docs/fairness.md §5: read back from the store, the expiry's events carry its deadline and
    the command's own events do not; the command rides on the first of them."""
    now = [datetime(2026, 11, 30, 12, 0, tzinfo=UTC)]
    ledger = Cardledger(settings, clock=lambda: now[0])
    try:
        who = two_players(ledger)
        game_id, deadline = pressure_game_in_process(ledger, who)
        ledger.commands.send(
            who[0], game_id, choice(ledger, who[0], game_id), idempotency=None, if_match=None
        )
        now[0] = deadline + timedelta(seconds=2)
        late = ledger.commands.send(
            who[1], game_id, choice(ledger, who[1], game_id), idempotency=None, if_match=None
        )
    finally:
        ledger.close()
    reopened = Cardledger(settings)
    try:
        read = reopened.queries.read(None, game_id)
        events = reopened.queries.events_in(read, after=0, limit=500).events
    finally:
        reopened.close()
    batch = [e for e in events if e.version > late.version - len(late.events)]
    assert [e.expiry for e in batch[:-1]] == [deadline] * (len(batch) - 1)
    assert batch[0].type == "ChoiceTimedOut" and batch[0].command is None
    assert batch[-1].expiry is None and batch[-1].command is not None


def choice(ledger: Cardledger, principal: Principal, game_id: UUID) -> object:
    """The first legal command for the seat as the game stands (after any expiry due)."""
    aggregate = ledger.queries.read(principal, game_id).aggregate
    seat = aggregate.state.seat_of(principal.player_id)
    assert seat is not None
    view = view_of(aggregate, Perspective(seat=seat), ledger.clock())
    return msgspec.to_builtins(view.legal_commands[0])
