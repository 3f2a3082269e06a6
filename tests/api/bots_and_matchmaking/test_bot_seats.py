"""Bots at real tables, over the API, on both stores (issue 23, "Bots fill seats"): a table of
bots alone plays every variant to its end, one person plays a table of bots, people cancel a
game against bots, a bot is shown as one wherever a seat is, and bad requests are refused with
a code, changing nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bots.contract import ALGORITHM
from bots.levels import available_levels
from tests.support.client import SHORT_GAMES, Api
from tests.support.threads import wait_until

LEVEL_1 = {"algorithm": ALGORITHM, "level": 1}  # seated today: the current algorithm


def create(api: Api, variant: str, bots: list[dict[str, int]], seats: int | None = None) -> Any:
    count, options = SHORT_GAMES[variant]
    body = {"variant": variant, "seats": seats or count, "options": options, "bots": bots}
    if not api.tokens:
        api.register(1)
    return api.client.post("/games", json=body, headers=api.auth(0))


def summary(api: Api, game_id: str) -> dict[str, Any]:
    response = api.client.get(f"/games/{game_id}")
    assert response.status_code == 200, response.text
    return dict(response.json())


def ended(api: Api, game_id: str) -> dict[str, Any]:
    wait_until(lambda: summary(api, game_id)["status"] in ("finished", "cancelled"), "the end")
    return summary(api, game_id)


@pytest.mark.parametrize("variant", list(SHORT_GAMES))
def test_a_table_of_bots_alone_plays_to_the_end(api: Api, variant: str) -> None:
    seats = SHORT_GAMES[variant][0]
    created = create(api, variant, [{"seat": seat, "level": 1} for seat in range(seats)])
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    assert created.json()["seat"] is None  # the creator does not sit: seat 0 is a bot's
    assert ended(api, game_id)["status"] == "finished"
    report = api.client.get(f"/games/{game_id}/audit").json()
    assert report["verdict"] == "valid", report
    assert [c["name"] for c in report["checks"]][-1] == "bots"
    seated = [e["payload"] for e in api.events(game_id) if e["type"] == "SeatTaken"]
    assert [(taken["seat"], taken["bot"]) for taken in seated] == [
        (seat, LEVEL_1) for seat in range(seats)
    ]


def test_one_person_plays_a_table_of_bots_to_the_end(api: Api) -> None:
    created = create(api, "heartbeat", [{"level": 1}, {"level": 1}])
    game_id = created.json()["game_id"]
    rng = random.Random(23)
    for _ in range(500):
        mine = api.view(game_id, 0)
        if mine["status"] != "active":
            break
        if 0 not in mine["to_act"]:
            seen = mine["version"]
            wait_until(lambda seen=seen: api.view(game_id)["version"] != seen, "a bot moved")
            continue
        listed = [c for c in mine["legal_commands"] if c["type"] not in ("leave", "vote_cancel")]
        sent = api.command(game_id, 0, rng.choice(listed), **{"If-Match": str(mine["version"])})
        assert sent.status_code in (200, 412), sent.text  # 412: a bot moved first
    assert mine["status"] == "finished"
    assert [seat["bot"] for seat in mine["seats"]] == [None, LEVEL_1, LEVEL_1]
    assert api.client.get(f"/games/{game_id}/audit").json()["verdict"] == "valid"
    # Bots are not ranked: the leaderboard counts the person alone.
    board = api.client.get("/leaderboard", params={"variant": "heartbeat"}).json()[0]["rows"]
    assert [(row["name"], row["games"]) for row in board] == [("Player 0", 1)]


def test_people_cancel_a_game_against_bots_by_voting(api: Api) -> None:
    api.register(2)
    created = create(api, "open-hand", [{"seat": 2, "level": 1}, {"seat": 3, "level": 1}])
    game_id = created.json()["game_id"]
    assert api.client.post(f"/games/{game_id}/join", headers=api.auth(1)).status_code == 200
    assert api.command(game_id, 0, {"type": "vote_cancel"}).status_code == 200
    # One vote of two: the bots wait for the other person.
    assert summary(api, game_id)["status"] == "active"
    assert api.command(game_id, 1, {"type": "vote_cancel"}).status_code == 200
    assert ended(api, game_id)["status"] == "cancelled"
    votes = [e["actor"] for e in api.events(game_id) if e["type"] == "CancelVoted"]
    assert sorted(votes[2:]) == ["seat:2", "seat:3"]
    # The bots' votes are re-run by the audit like their plays.
    report = api.client.get(f"/games/{game_id}/audit").json()
    assert report["verdict"] == "valid", report


def test_a_bot_is_shown_as_one_in_the_view_the_lobby_and_the_events(api: Api) -> None:
    created = create(api, "open-hand", [{"seat": 2, "level": 1}])
    game_id = created.json()["game_id"]
    seats = api.view(game_id, 0)["seats"]
    assert [(s["seat"], s["name"], s["bot"]) for s in seats] == [
        (0, "Player 0", None),
        (2, "Bot 2", LEVEL_1),
    ]
    lobby = api.client.get("/games", params={"status": "waiting"}).json()
    entry = next(e for e in lobby if e["game_id"] == game_id)
    assert [s["bot"] for s in entry["seats"]] == [None, LEVEL_1]
    seat_taken = api.events(game_id)[-1]
    assert seat_taken["payload"]["bot"] == LEVEL_1 and seat_taken["actor"] == "seat:0"
    creator = api.events(game_id)[1]
    assert "bot" not in creator["payload"]  # a person's seat as before bots existed
    # The next person takes the lowest free seat, the hole before the bot.
    api.register(1)
    joined = api.client.post(f"/games/{game_id}/join", headers=api.auth(1)).json()
    assert joined["seat"] == 1


def test_the_creator_seats_a_bot_and_the_last_seat_starts_the_game(api: Api) -> None:
    game_id = create(api, "open-hand", [], seats=3).json()["game_id"]
    added = api.client.post(f"/games/{game_id}/bots", json={"level": 1}, headers=api.auth(0))
    assert added.status_code == 200, added.text
    assert added.json()["events"][0]["payload"]["seat"] == 1
    last = api.client.post(
        f"/games/{game_id}/bots", json={"seat": 2, "level": 1}, headers=api.auth(0)
    )
    assert [e["type"] for e in last.json()["events"]][:2] == ["SeatTaken", "GameStarted"]
    assert summary(api, game_id)["status"] == "active"


def refusal(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    problem: dict[str, Any] = response.json()
    assert problem["code"] == code, problem
    return problem


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"level": 9}, 422, "unknown_level"),
        ({"seat": 0, "level": 1}, 409, "seat_taken"),
        ({"seat": 3, "level": 1}, 422, "invalid_seat"),
        ({"seat": 1, "level": 1, "name": "x"}, 422, "invalid_body"),
    ],
)
def test_a_bad_bot_is_refused_and_nothing_changes(
    api: Api, body: dict[str, Any], status: int, code: str
) -> None:
    game_id = create(api, "open-hand", [], seats=3).json()["game_id"]
    before = api.events(game_id)
    sent = api.client.post(f"/games/{game_id}/bots", json=body, headers=api.auth(0))
    problem = refusal(sent, status, code)
    if code == "unknown_level":
        assert problem["levels"] == list(available_levels("open-hand"))
    assert api.events(game_id) == before


def test_only_the_creator_seats_bots_and_only_before_the_start(api: Api) -> None:
    api.register(2)
    game_id = create(api, "open-hand", [], seats=2).json()["game_id"]
    sent = api.client.post(f"/games/{game_id}/bots", json={"level": 1}, headers=api.auth(1))
    refusal(sent, 403, "not_creator")
    api.client.post(f"/games/{game_id}/join", headers=api.auth(1)).raise_for_status()
    before = api.events(game_id)
    sent = api.client.post(f"/games/{game_id}/bots", json={"level": 1}, headers=api.auth(0))
    refusal(sent, 409, "game_already_started")
    assert api.events(game_id) == before


@pytest.mark.parametrize(
    ("bots", "status", "code"),
    [
        ([{"level": 9}], 422, "unknown_level"),
        ([{"seat": 1, "level": 1}, {"seat": 1, "level": 1}], 409, "seat_taken"),
        ([{"seat": 7, "level": 1}], 422, "invalid_seat"),
        ([{"level": 1}] * 4, 422, "too_many_bots"),
    ],
)
def test_a_game_with_bad_bots_is_not_created(
    api: Api, bots: list[dict[str, int]], status: int, code: str
) -> None:
    refusal(create(api, "open-hand", bots, seats=3), status, code)
    assert api.client.get("/games").json() == []
