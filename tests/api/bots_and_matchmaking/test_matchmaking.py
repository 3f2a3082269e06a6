"""Quick match over the API, on both stores: players who join a queue are seated together as
soon as a table can be formed, bots take the free seats after the wait a player chose, entries
outlive the process, and every refusal is coded and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.application import Cardledger
from service.http.app import create_app
from service.settings import Settings
from tests.support.client import Api
from tests.support.threads import at_once, wait_until

QUEUE = "/matchmaking/queue"


def join(api: Api, seat: int, **body: Any) -> Any:
    return api.client.post(QUEUE, json={"variant": "open-hand", **body}, headers=api.auth(seat))


def entries(api: Api, seat: int) -> list[dict[str, Any]]:
    response = api.client.get(QUEUE, headers=api.auth(seat))
    assert response.status_code == 200, response.text
    return list(response.json())


def summary(api: Api, game_id: str) -> dict[str, Any]:
    response = api.client.get(f"/games/{game_id}")
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_two_players_are_seated_together_as_soon_as_the_second_joins(api: Api) -> None:
    api.register(2)
    first = join(api, 0, min_seats=2, max_seats=2, client_seed="mine")
    assert first.status_code == 200, first.text
    assert first.json()["status"] == "waiting"
    assert first.json()["min_seats"] == first.json()["max_seats"] == 2
    assert entries(api, 0) == [first.json()]
    second = join(api, 1, max_seats=3)  # at least the variant's least: 2
    assert second.status_code == 200, second.text
    matched = second.json()
    assert matched["status"] == "matched"
    game_id = matched["game_id"]
    assert [entry["game_id"] for entry in entries(api, 0)] == [game_id]
    public = summary(api, game_id)
    assert public["status"] == "active"
    view = api.view(game_id, 0)
    assert view["seat"] == 0 and view["hand"]
    assert api.view(game_id, 1)["seat"] == 1
    # Seated as if each had joined themselves: the first player's client seed is theirs.
    taken = [e["payload"] for e in api.events(game_id) if e["type"] == "SeatTaken"]
    assert [t["client_seed"] for t in taken] == ["mine", ""]
    assert api.play_to_end(game_id)["status"] == "finished"
    assert api.client.get(f"/games/{game_id}/audit").json()["verdict"] == "valid"
    # Entries carry the player's rating: the model's start before any game, then their own.
    assert first.json()["rating"] == 25.0
    player = api.client.get("/players/me/games", headers=api.auth(0)).json()[0]["seats"][0]
    profile = api.client.get(f"/players/{player['player_id']}").json()
    [rated] = [r["rating"] for r in profile["ratings"] if r["variant"] == "open-hand"]
    assert rated != 25.0
    assert join(api, 0, min_seats=3).json()["rating"] == rated


def test_players_wanting_different_tables_keep_waiting(api: Api) -> None:
    api.register(3)
    assert join(api, 0, min_seats=3, max_seats=3).json()["status"] == "waiting"
    assert join(api, 1, max_seats=2).json()["status"] == "waiting"
    other = join(api, 2, min_seats=3, options={"tiebreak": "playoff"})
    assert other.json()["status"] == "waiting", other.text
    assert other.json()["queue_length"] == 3


def test_a_player_leaves_the_queue_and_is_not_seated(api: Api) -> None:
    api.register(3)
    join(api, 0, max_seats=2)
    left = api.client.delete(f"{QUEUE}/open-hand", headers=api.auth(0))
    assert left.status_code == 204, left.text
    assert entries(api, 0) == []
    assert join(api, 1, max_seats=2).json()["status"] == "waiting"
    again = api.client.delete(f"{QUEUE}/open-hand", headers=api.auth(0))
    assert again.status_code == 404 and again.json()["code"] == "not_queued"
    assert join(api, 2, max_seats=2).json()["status"] == "matched"


def test_bots_take_the_free_seats_after_the_chosen_wait(api: Api) -> None:
    api.register(1)
    waiting = join(api, 0, variant="heartbeat", min_seats=3, bots={"after": 0.5, "level": 1})
    assert waiting.json()["status"] == "waiting", waiting.text
    assert waiting.json()["bots"] == {"after": 0.5, "level": 1}

    def matched() -> bool:
        return any(entry["status"] == "matched" for entry in entries(api, 0))

    wait_until(matched, "bots took the free seats")
    game_id = entries(api, 0)[0]["game_id"]
    seats = summary(api, game_id)["seats"]
    assert len(seats) == 3
    taken = [e["payload"] for e in api.events(game_id) if e["type"] == "SeatTaken"]
    assert [t.get("bot") is not None for t in taken] == [False, True, True]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"variant": "no-such-game"}, 422, "unknown_variant"),
        ({"min_seats": 1}, 422, "invalid_seat_range"),
        ({"min_seats": 4, "max_seats": 3}, 422, "invalid_seat_range"),
        ({"max_seats": 99}, 422, "invalid_seat_range"),
        ({"options": {"colour": "red"}}, 422, "unknown_option"),
        ({"options": {"tiebreak": 7}}, 422, "invalid_option"),
        ({"rating_band": -1}, 422, "invalid_rating_band"),
        ({"bots": {"after": -1, "level": 1}}, 422, "invalid_bot_wait"),
        ({"bots": {"after": 5, "level": 99}}, 422, "unknown_level"),
        ({"client_seed": "x" * 129}, 422, "invalid_client_seed"),
        ({"seats": 2}, 422, "invalid_body"),
    ],
)
def test_bad_requests_are_coded_and_change_nothing(
    api: Api, body: dict[str, Any], status: int, code: str
) -> None:
    api.register(1)
    before = api.ledger.store.last_position()
    refused = join(api, 0, **body)
    assert (refused.status_code, refused.json()["code"]) == (status, code), refused.text
    assert entries(api, 0) == []
    assert api.ledger.store.last_position() == before  # nothing written


def test_a_player_already_queued_is_refused(api: Api) -> None:
    api.register(1)
    join(api, 0, min_seats=3)
    again = join(api, 0, min_seats=3)
    assert (again.status_code, again.json()["code"]) == (409, "already_queued")
    assert len(entries(api, 0)) == 1


def test_a_full_queue_refuses_more(settings: Settings) -> None:
    small = msgspec.structs.replace(settings, queue_capacity=2)
    with api_of(small) as api:
        api.register(3)
        for seat in range(2):
            assert join(api, seat, min_seats=3 + seat, max_seats=3 + seat).status_code == 200
        full = join(api, 2, min_seats=5)
        assert (full.status_code, full.json()["code"]) == (409, "queue_full")
        assert entries(api, 2) == []
        # Another variant's queue is its own.
        assert join(api, 2, variant="heartbeat", min_seats=6).status_code == 200


def test_a_player_in_too_many_games_is_refused(settings: Settings) -> None:
    few = msgspec.structs.replace(settings, max_active_games=1)
    with api_of(few) as api:
        api.register(2)
        api.create(2)  # player 0 sits at a game waiting for players
        refused = join(api, 0)
        assert (refused.status_code, refused.json()["code"]) == (409, "too_many_games")
        assert refused.json()["most"] == 1
        assert entries(api, 0) == []
        assert join(api, 1, min_seats=3).status_code == 200


def test_entries_outlive_the_process(settings: Settings) -> None:
    with api_of(settings) as api:
        api.register(2)
        join(api, 0, max_seats=2)
        tokens = api.tokens
    with api_of(settings) as api:
        api.tokens = tokens
        assert [entry["status"] for entry in entries(api, 0)] == ["waiting"]
        matched = join(api, 1, max_seats=2).json()
        assert matched["status"] == "matched"
        assert api.view(matched["game_id"], 0)["seat"] == 0


def test_a_bot_wait_outlives_the_process(settings: Settings) -> None:
    """The timer of a process started later finds the wait in the stored queue."""
    with api_of(settings) as api:
        api.register(1)
        join(api, 0, min_seats=2, max_seats=2, bots={"after": 3600, "level": 1})
        tokens = api.tokens
    # As if the hour had passed while no process ran: the next process's clock is an hour on.
    with api_of(settings, clock_ahead=3600) as api:
        api.tokens = tokens
        wait_until(lambda: entries(api, 0)[0]["status"] == "matched", "the bot's seat")
        seats = summary(api, entries(api, 0)[0]["game_id"])["seats"]
        assert len(seats) == 2


@contextmanager
def api_of(settings: Settings, *, clock_ahead: float = 0) -> Iterator[Api]:
    """An API process of its own on the test's store (its clock ``clock_ahead`` seconds on)."""

    def clock() -> datetime:
        return datetime.now(UTC) + timedelta(seconds=clock_ahead)

    ledger = Cardledger(settings, clock=clock)
    try:
        with TestClient(create_app(settings, ledger)) as client:
            yield Api(client, ledger)
    finally:
        ledger.close()


def test_a_keyed_join_retried_is_answered_as_it_was_and_queues_nobody_again(api: Api) -> None:
    """Without the key, a retry of a join that was seated at once would queue the player again."""
    api.register(2)
    join(api, 0, max_seats=2)
    keyed = {**api.auth(1), "Idempotency-Key": "join-1"}
    body = {"variant": "open-hand", "max_seats": 2}
    first = api.client.post(QUEUE, json=body, headers=keyed)
    assert first.json()["status"] == "matched", first.text
    before = api.ledger.store.last_position()
    again = api.client.post(QUEUE, json=body, headers=keyed)
    assert (again.status_code, again.json()) == (200, first.json())
    assert api.ledger.store.last_position() == before
    assert [entry["status"] for entry in entries(api, 1)] == ["matched"]
    other = api.client.post(QUEUE, json={**body, "max_seats": 3}, headers=keyed)
    assert (other.status_code, other.json()["code"]) == (422, "idempotency_key_reused")


def test_keyed_joins_racing_with_one_key_queue_once(api: Api) -> None:
    api.register(1)
    keyed = {**api.auth(0), "Idempotency-Key": "join-race"}
    body = {"variant": "open-hand", "min_seats": 3}
    answers = at_once([lambda: api.client.post(QUEUE, json=body, headers=keyed)] * 6)
    assert {a.status_code for a in answers} == {200}, [a.text for a in answers]
    assert len({a.text for a in answers}) == 1  # each the one original answer
    state = api.ledger.matchmaking.queues.current("open-hand").state
    assert len(state.waiting) == 1
