"""Bad input gets a clear RFC 9457 error with a stable code, and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.client import Api

PROBLEM = "application/problem+json"


def snapshot(api: Api, game_id: str) -> tuple[int, str, int]:
    view = api.client.get(f"/games/{game_id}").json()
    return view["version"], view["chain_head"], len(api.events(game_id))


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body = response.json()
    assert body["code"] == code
    assert body["status"] == status
    assert body["type"] == f"urn:cardledger:problem:{code}"
    assert body["title"] and body["detail"]
    return dict(body)


@pytest.fixture
def running(api: Api) -> str:
    return api.started(3)


def someone_waiting(api: Api, game_id: str) -> int:
    leader = api.view(game_id)["to_act"][0]
    return (leader + 1) % 3


def card_of(api: Api, game_id: str, seat: int) -> str:
    return str(api.view(game_id, seat)["hand"][0])


def card_not_held(api: Api, game_id: str, seat: int) -> str:
    held = set(api.view(game_id, seat)["hand"])
    return next(card for card in ("2S", "3S", "4S", "5S", "6S", "7S") if card not in held)


def test_not_your_turn(api: Api, running: str) -> None:
    seat = someone_waiting(api, running)
    before = snapshot(api, running)
    response = api.command(running, seat, {"type": "play", "card": card_of(api, running, seat)})
    assert_problem(response, 409, "not_your_turn")
    assert snapshot(api, running) == before


def test_card_not_in_hand(api: Api, running: str) -> None:
    leader = api.view(running)["to_act"][0]
    before = snapshot(api, running)
    response = api.command(
        running, leader, {"type": "play", "card": card_not_held(api, running, leader)}
    )
    assert_problem(response, 409, "card_not_in_hand")
    assert snapshot(api, running) == before


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"type": "play", "card": "1S"}, 422, "unknown_card"),
        ({"type": "play", "card": "QX"}, 422, "unknown_card"),
        ({"type": "pass"}, 422, "unknown_command"),
        ({"type": "choose", "card": "QS"}, 422, "unknown_command"),
        ({"card": "QS"}, 422, "unknown_command"),
        ({"type": "play"}, 422, "invalid_command"),
        ({"type": "play", "card": 7}, 422, "invalid_command"),
        ({"type": "play", "card": "QS", "seat": 2}, 422, "invalid_command"),
        (["play", "QS"], 422, "invalid_command"),
    ],
)
def test_malformed_commands(api: Api, running: str, body: Any, status: int, code: str) -> None:
    leader = api.view(running)["to_act"][0]
    before = snapshot(api, running)
    assert_problem(api.command(running, leader, body), status, code)
    assert snapshot(api, running) == before


def test_malformed_json(api: Api, running: str) -> None:
    before = snapshot(api, running)
    response = api.client.post(
        f"/games/{running}/commands", content=b'{"type": "play",', headers=api.auth(0)
    )
    assert_problem(response, 400, "malformed_json")
    assert snapshot(api, running) == before


def test_oversized_body(api: Api, running: str) -> None:
    before = snapshot(api, running)
    body = b'{"type": "play", "card": "' + b"Q" * 40_000 + b'"}'
    response = api.client.post(f"/games/{running}/commands", content=body, headers=api.auth(0))
    assert_problem(response, 413, "body_too_large")
    assert snapshot(api, running) == before


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer not-a-token"},
        {"Authorization": "Basic abc"},
        {"Authorization": "Bearer "},
    ],
)
def test_missing_or_invalid_token(api: Api, running: str, headers: dict[str, str]) -> None:
    before = snapshot(api, running)
    response = api.client.post(
        f"/games/{running}/commands", json={"type": "leave"}, headers=headers
    )
    body = assert_problem(response, 401, "unauthorized")
    assert "not-a-token" not in str(body)
    assert response.headers["www-authenticate"] == "Bearer"
    assert snapshot(api, running) == before


def test_acting_for_another_seat_is_impossible(api: Api, running: str) -> None:
    # The seat comes from the token only: an outsider has none, a body field cannot name one.
    api.register(1)
    outsider = len(api.tokens) - 1
    before = snapshot(api, running)
    leader = api.view(running)["to_act"][0]
    card = card_of(api, running, leader)
    assert_problem(
        api.command(running, outsider, {"type": "play", "card": card}), 403, "not_seated"
    )
    assert_problem(
        api.command(running, outsider, {"type": "play", "card": card, "seat": leader}),
        422,
        "invalid_command",
    )
    assert snapshot(api, running) == before


def test_commands_on_finished_cancelled_and_unknown_games(api: Api) -> None:
    finished = api.started(2)
    api.play_to_end(finished)
    before = snapshot(api, finished)
    assert_problem(api.command(finished, 0, {"type": "leave"}), 409, "game_finished")
    assert snapshot(api, finished) == before

    cancelled = api.started(2)
    api.client.post(f"/games/{cancelled}/cancel", headers=api.admin())
    before = snapshot(api, cancelled)
    assert_problem(api.command(cancelled, 0, {"type": "vote_cancel"}), 409, "game_cancelled")
    assert_problem(
        api.client.post(f"/games/{cancelled}/cancel", headers=api.admin()), 409, "game_cancelled"
    )
    assert snapshot(api, cancelled) == before

    unknown = "00000000-0000-4000-8000-000000000000"
    assert_problem(api.command(unknown, 0, {"type": "leave"}), 404, "game_not_found")
    assert_problem(api.client.get(f"/games/{unknown}/view"), 404, "game_not_found")
    assert_problem(api.client.get("/games/not-a-uuid/view"), 404, "not_found")


def test_waiting_games_refuse_commands(api: Api) -> None:
    api.register(2)
    waiting = api.create(2)
    before = snapshot(api, waiting)
    assert_problem(api.command(waiting, 0, {"type": "leave"}), 409, "game_not_started")
    assert snapshot(api, waiting) == before


def test_joining_twice_or_a_full_game(api: Api) -> None:
    api.register(3)
    game_id = api.create(3)
    assert api.client.post(f"/games/{game_id}/join", headers=api.auth(1)).status_code == 200
    before = snapshot(api, game_id)
    assert_problem(
        api.client.post(f"/games/{game_id}/join", headers=api.auth(1)), 409, "already_seated"
    )
    assert_problem(
        api.client.post(f"/games/{game_id}/join", headers=api.auth(0)), 409, "already_seated"
    )
    assert snapshot(api, game_id) == before
    assert api.client.post(f"/games/{game_id}/join", headers=api.auth(2)).status_code == 200
    api.register(1)
    before = snapshot(api, game_id)
    assert_problem(api.client.post(f"/games/{game_id}/join", headers=api.auth(3)), 409, "game_full")
    assert snapshot(api, game_id) == before


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"variant": "open-hand", "seats": 1}, 422, "invalid_seat_count"),
        ({"variant": "open-hand", "seats": 9}, 422, "invalid_seat_count"),
        (
            {"variant": "open-hand", "seats": 4, "options": {"jokers": "zero"}},
            422,
            "unknown_option",
        ),
        (
            {"variant": "open-hand", "seats": 4, "options": {"first_leader": "me"}},
            422,
            "invalid_option",
        ),
        ({"variant": "open-hand", "seats": 4, "options": {"tiebreak": 1}}, 422, "invalid_option"),
        ({"variant": "poker", "seats": 4}, 422, "unknown_variant"),
        ({"variant": "open-hand", "seats": "four"}, 422, "invalid_body"),
        ({"variant": "open-hand", "seats": 4, "colour": "red"}, 422, "invalid_body"),
        (
            {"variant": "open-hand", "seats": 4, "client_seed": "x" * 129},
            422,
            "invalid_client_seed",
        ),
        (
            {"variant": "open-hand", "seats": 4, "client_seed": "😀" * 129},
            422,
            "invalid_client_seed",
        ),
    ],
)
def test_bad_game_creation(api: Api, body: dict[str, Any], status: int, code: str) -> None:
    api.register(1)
    before = api.client.get("/games").json()
    assert_problem(api.client.post("/games", json=body, headers=api.auth(0)), status, code)
    assert api.client.get("/games").json() == before


def test_a_client_seed_is_up_to_128_characters_of_any_kind(api: Api) -> None:
    """docs/fairness.md §1: counted in code points, control characters allowed; a lone
    surrogate is not JSON at all."""
    api.register(1)
    seed = "😀\x00\x1b\n\u2028" + "é" * 123
    body = {"variant": "open-hand", "seats": 2, "client_seed": seed}
    created = api.client.post("/games", json=body, headers=api.auth(0))
    assert created.status_code == 201, created.text
    events = api.client.get(f"/games/{created.json()['game_id']}/events").json()["events"]
    assert len(seed) == 128 and events[1]["payload"]["client_seed"] == seed
    lone = b'{"variant": "open-hand", "seats": 2, "client_seed": "\\ud800"}'
    refused = api.client.post("/games", content=lone, headers=api.auth(0))
    assert_problem(refused, 400, "malformed_json")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": ""}, "invalid_name"),
        ({"name": "x" * 65}, "invalid_name"),
        ({"name": "a\nb"}, "invalid_name"),
        ({}, "invalid_body"),
    ],
)
def test_bad_registration(api: Api, body: dict[str, Any], code: str) -> None:
    assert_problem(api.client.post("/players", json=body), 422, code)


def test_bad_query_and_headers(api: Api, running: str) -> None:
    assert_problem(api.client.get("/games?status=playing"), 422, "invalid_status")
    assert_problem(api.client.get("/games?variant=poker"), 422, "unknown_variant")
    assert_problem(api.client.get(f"/games/{running}/events?limit=0"), 400, "invalid_parameter")
    assert_problem(api.client.get(f"/games/{running}/events?after=x"), 400, "invalid_parameter")
    leader = api.view(running)["to_act"][0]
    card = card_of(api, running, leader)
    before = snapshot(api, running)
    assert_problem(
        api.command(running, leader, {"type": "play", "card": card}, **{"If-Match": "v1"}),
        400,
        "invalid_if_match",
    )
    assert_problem(
        api.command(
            running, leader, {"type": "play", "card": card}, **{"Idempotency-Key": "k" * 200}
        ),
        400,
        "invalid_idempotency_key",
    )
    assert snapshot(api, running) == before


def test_errors_never_leak_other_hands(api: Api, running: str) -> None:
    leader = api.view(running)["to_act"][0]
    others = {
        card for seat in range(3) if seat != leader for card in api.view(running, seat)["hand"]
    }
    for card in sorted(others):
        response = api.command(running, leader, {"type": "play", "card": card})
        assert_problem(response, 409, "card_not_in_hand")
        assert response.json()["detail"] == f"{card} is not in your hand"
