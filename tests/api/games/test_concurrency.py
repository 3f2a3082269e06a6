"""Racing commands, idempotent retries and If-Match, on SQLite and PostgreSQL."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from litestar.testing import TestClient

from service.application import Cardledger
from service.http.app import create_app
from service.settings import Settings
from tests.support.client import Api
from tests.support.threads import BOUND, at_once


@contextmanager
def lockstep(ledger: Cardledger, parties: int) -> Iterator[None]:
    """Hold each racing thread's first save until every party has decided on the same state."""
    barrier = threading.Barrier(parties)
    original = ledger.store.save
    first = threading.local()

    def save(*objects: Any, **kwargs: Any) -> Any:
        if not getattr(first, "passed", False):
            first.passed = True
            barrier.wait(timeout=BOUND)
        return original(*objects, **kwargs)

    ledger.store.save = save  # type: ignore[method-assign]
    try:
        yield
    finally:
        ledger.store.save = original  # type: ignore[method-assign]


def race(*calls: Callable[[], Any]) -> list[Any]:
    return at_once(calls)


def assert_contiguous(api: Api, game_id: str) -> list[dict[str, Any]]:
    events = api.events(game_id)
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert all(b["prev_hash"] == a["hash"] for a, b in itertools.pairwise(events))
    return events


def test_two_seats_at_once_both_land_one_is_redecided(api: Api) -> None:
    game_id = api.started(3)
    before = api.view(game_id)["version"]
    with lockstep(api.ledger, 2):
        first, second = race(
            lambda: api.command(game_id, 1, {"type": "vote_cancel"}),
            lambda: api.command(game_id, 2, {"type": "vote_cancel"}),
        )
    assert (first.status_code, second.status_code) == (200, 200)
    assert sorted([first.json()["version"], second.json()["version"]]) == [before + 1, before + 2]
    events = assert_contiguous(api, game_id)
    assert sorted(e["payload"]["seat"] for e in events if e["type"] == "CancelVoted") == [1, 2]


def test_a_double_submit_lands_once_and_the_loser_gets_a_coded_error(api: Api) -> None:
    game_id = api.started(3)
    leader = api.view(game_id)["to_act"][0]
    hand = api.view(game_id, leader)["hand"]
    before = api.view(game_id)["version"]
    with lockstep(api.ledger, 2):
        responses = race(
            lambda: api.command(game_id, leader, {"type": "play", "card": hand[0]}),
            lambda: api.command(game_id, leader, {"type": "play", "card": hand[1]}),
        )
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200, 409]
    loser = next(r for r in responses if r.status_code == 409)
    assert loser.json()["code"] == "not_your_turn"
    events = assert_contiguous(api, game_id)
    assert len(events) == before + 1
    assert sum(e["type"] == "CardPlayed" for e in events) == 1


def test_idempotent_retry_returns_the_original_and_writes_nothing(api: Api) -> None:
    game_id = api.started(2)
    leader = api.view(game_id)["to_act"][0]
    card = api.view(game_id, leader)["hand"][0]
    key = {"Idempotency-Key": "retry-1"}
    original = api.command(game_id, leader, {"type": "play", "card": card}, **key)
    assert original.status_code == 200
    version = api.view(game_id)["version"]
    retried = api.command(game_id, leader, {"type": "play", "card": card}, **key)
    assert retried.status_code == 200
    assert retried.json() == original.json()
    assert api.view(game_id)["version"] == version

    other_card = api.view(game_id, leader)["hand"][0]
    reused = api.command(game_id, leader, {"type": "play", "card": other_card}, **key)
    assert (reused.status_code, reused.json()["code"]) == (422, "idempotency_key_reused")
    assert api.view(game_id)["version"] == version


def test_idempotent_retry_still_answers_after_the_game_moved_on_and_a_restart(
    api: Api, settings: Settings
) -> None:
    game_id = api.started(2)
    leader = api.view(game_id)["to_act"][0]
    card = api.view(game_id, leader)["hand"][0]
    original = api.command(
        game_id, leader, {"type": "play", "card": card}, **{"Idempotency-Key": "k"}
    )
    api.play_to_end(game_id)
    restarted = Cardledger(settings)
    try:
        with TestClient(create_app(settings, restarted)) as client:
            retried = client.post(
                f"/games/{game_id}/commands",
                json={"type": "play", "card": card},
                headers={**api.auth(leader), "Idempotency-Key": "k"},
            )
    finally:
        restarted.close()
    assert retried.status_code == 200
    assert retried.json() == original.json()


def test_concurrent_retries_with_one_key_write_once(api: Api) -> None:
    game_id = api.started(2)
    leader = api.view(game_id)["to_act"][0]
    card = api.view(game_id, leader)["hand"][0]
    before = api.view(game_id)["version"]

    def send() -> Any:
        return api.command(
            game_id, leader, {"type": "play", "card": card}, **{"Idempotency-Key": "same"}
        )

    with lockstep(api.ledger, 2):
        first, second = race(send, send)
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert len(assert_contiguous(api, game_id)) == before + 1


def test_idempotent_game_creation(api: Api) -> None:
    api.register(1)
    body = {"variant": "open-hand", "seats": 2}
    headers = {**api.auth(0), "Idempotency-Key": "create-once"}
    first = api.client.post("/games", json=body, headers=headers)
    second = api.client.post("/games", json=body, headers=headers)
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert len(api.client.get("/games").json()) == 1
    changed = api.client.post("/games", json={**body, "seats": 3}, headers=headers)
    assert (changed.status_code, changed.json()["code"]) == (422, "idempotency_key_reused")


@pytest.mark.parametrize("spelling", ["{}", '"{}"', 'W/"{}"'])  # bare, or as ETags come
def test_if_match(api: Api, spelling: str) -> None:
    game_id = api.started(2)
    leader = api.view(game_id)["to_act"][0]
    card = api.view(game_id, leader)["hand"][0]
    version = api.view(game_id)["version"]
    stale = api.command(
        game_id,
        leader,
        {"type": "play", "card": card},
        **{"If-Match": spelling.format(version - 1)},
    )
    assert (stale.status_code, stale.json()["code"]) == (412, "version_mismatch")
    assert stale.json()["version"] == version
    assert api.view(game_id)["version"] == version
    fresh = api.command(
        game_id, leader, {"type": "play", "card": card}, **{"If-Match": spelling.format(version)}
    )
    assert fresh.status_code == 200
