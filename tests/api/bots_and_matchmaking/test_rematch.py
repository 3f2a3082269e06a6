"""Rematch over the API, on both stores: after a finished game its people offer and accept a new
game of the same variant and options, seats rotated by one and bots kept at their levels; every
refusal is coded and changes nothing; the players hear of the offer and the match."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
from litestar.testing import TestClient

from service.application import Cardledger
from service.http.app import create_app
from service.settings import Settings
from tests.support.client import Api
from tests.support.threads import wait_until


def rematch(api: Api, game_id: str, seat: int | None, method: str = "post") -> Any:
    headers = api.auth(seat) if seat is not None else {}
    return api.client.request(method.upper(), f"/games/{game_id}/rematch", headers=headers)


def state(api: Api, game_id: str) -> dict[str, Any]:
    response = api.client.get(f"/games/{game_id}/rematch")
    assert response.status_code == 200, response.text
    return dict(response.json())


def messages(api: Api, player: int) -> list[dict[str, Any]]:
    response = api.client.get("/players/me/messages?after=0", headers=api.auth(player))
    assert response.status_code == 200, response.text
    return list(response.json()["messages"])


def with_a_bot(api: Api) -> str:
    """An open-hand game: player 0 at seat 0, player 1 at seat 1, a level-1 bot at seat 2."""
    api.register(2 - len(api.tokens))
    body = {"variant": "open-hand", "seats": 3, "bots": [{"level": 1, "seat": 2}]}
    response = api.client.post("/games", json=body, headers=api.auth(0))
    assert response.status_code == 201, response.text
    game_id = str(response.json()["game_id"])
    joined = api.client.post(f"/games/{game_id}/join", headers=api.auth(1))
    assert joined.status_code == 200, joined.text
    return game_id


def played_out(api: Api, game_id: str, people: dict[int, int]) -> None:
    """Each person's seat (``people``: seat -> player) plays its first listed card when awaited,
    the bot plays by itself, until the game is over."""
    while True:
        public = api.view(game_id)
        if public["status"] != "active":
            return
        mine = [seat for seat in public["to_act"] if seat in people]
        if not mine:
            version = public["version"]
            wait_until(lambda v=version: api.view(game_id)["version"] > v, "the bot played")
            continue
        view = api.view(game_id, people[mine[0]])
        play = next(c for c in view["legal_commands"] if c["type"] == "play")
        response = api.command(game_id, people[mine[0]], play)
        assert response.status_code == 200, response.text


def seats_of(api: Api, game_id: str) -> list[dict[str, Any]]:
    taken = [e["payload"] for e in api.events(game_id) if e["type"] == "SeatTaken"]
    return sorted(taken, key=lambda seat: int(seat["seat"]))


def test_a_rematch_with_a_bot_rotates_every_seat_once_both_people_accept(api: Api) -> None:
    old = with_a_bot(api)
    assert rematch(api, old, 0).json()["code"] == "game_not_finished"
    played_out(api, old, {0: 0, 1: 1})
    before = seats_of(api, old)

    offered = rematch(api, old, 0)
    assert offered.status_code == 200, offered.text
    players = [seat["player_id"] for seat in before[:2]]
    assert offered.json()["status"] == "offered"
    assert offered.json()["offered_by"] == players[0]
    assert offered.json()["waiting_for"] == [players[1]]
    assert state(api, old) == offered.json()

    made = rematch(api, old, 1)
    assert made.status_code == 200, made.text
    new = made.json()["new_game_id"]
    assert made.json()["status"] == "made" and new
    assert state(api, old)["new_game_id"] == new

    after = seats_of(api, new)
    assert [seat["player_id"] for seat in after] == ["bot:0", *players]
    assert after[0]["bot"]["level"] == before[2]["bot"]["level"] == 1
    assert api.view(new, 0)["seat"] == 1 and api.view(new, 1)["seat"] == 2
    created = api.events(new)[0]
    assert created["type"] == "GameCreated"
    assert created["payload"]["rematch_of"] == old
    assert api.view(new)["status"] == "active"
    old_created = api.events(old)[0]["payload"]
    assert "rematch_of" not in old_created and "matched_by" not in old_created
    assert created["payload"]["options"] == old_created["options"]

    lobby = {entry["game_id"]: entry for entry in api.client.get("/games?limit=100").json()}
    assert lobby[old]["rematch"] == new and lobby[old]["rematch_of"] is None
    assert lobby[new]["rematch_of"] == old and lobby[new]["rematch"] is None

    # The rematch is a game like any other: played to its end, it audits as valid.
    played_out(api, new, {1: 0, 2: 1})
    assert api.client.get(f"/games/{new}/audit").json()["verdict"] == "valid"

    heard = messages(api, 1)
    [offer] = [m for m in heard if m["kind"] == "rematch_offered"]
    assert offer["game_id"] == old and offer["offered_by"] == "Player 0"
    assert offer["seats"] == [1]
    [started] = [m for m in heard if m["kind"] == "game_started" and m["game_id"] == new]
    assert started["rematch_of"] == old and started["seats"] == [2]
    assert not [m for m in messages(api, 0) if m["kind"] == "rematch_offered"]
    # Derived from the log: a rebuild of the read models derives the same messages.
    heard_by_both = [messages(api, 0), heard]
    api.ledger.read_models.rebuild()
    assert [messages(api, 0), messages(api, 1)] == heard_by_both


def test_refusals_are_coded_and_change_nothing(api: Api) -> None:
    old = with_a_bot(api)
    played_out(api, old, {0: 0, 1: 1})
    api.register(1)  # player 2 sits at no game
    untouched = state(api, old)
    assert untouched["status"] == "none"
    written = api.ledger.store.last_position()
    for seat, method, status, code in [
        (2, "post", 403, "not_seated"),
        (2, "delete", 403, "not_seated"),
        (0, "delete", 404, "no_rematch_offer"),
        (None, "post", 401, "unauthorized"),
    ]:
        response = rematch(api, old, seat, method)
        assert (response.status_code, response.json()["code"]) == (status, code)
        assert state(api, old) == untouched
    too_long = api.client.post(
        f"/games/{old}/rematch", json={"client_seed": "x" * 129}, headers=api.auth(0)
    )
    assert too_long.json()["code"] == "invalid_client_seed"
    unknown = api.client.post(f"/games/{old}/rematch", json={"seat": 1}, headers=api.auth(0))
    assert unknown.json()["code"] == "invalid_body"
    assert state(api, old) == untouched
    assert api.ledger.store.last_position() == written  # nothing was written
    missing = api.client.get("/games/00000000-0000-4000-8000-000000000000/rematch")
    assert missing.json()["code"] == "game_not_found"

    assert rematch(api, old, 0).status_code == 200
    offered = state(api, old)
    written = api.ledger.store.last_position()
    assert rematch(api, old, 0).json()["code"] == "already_offered"
    assert state(api, old) == offered
    assert api.ledger.store.last_position() == written
    declined = rematch(api, old, 1, "delete")
    assert declined.status_code == 200, declined.text
    assert declined.json()["status"] == "declined"
    assert declined.json()["declined_by"] == offered["waiting_for"][0]
    for seat, method in [(1, "post"), (0, "delete")]:
        response = rematch(api, old, seat, method)
        assert (response.status_code, response.json()["code"]) == (409, "rematch_declined")
    assert state(api, old) == declined.json()


@contextmanager
def api_of(settings: Settings) -> Iterator[Api]:
    ledger = Cardledger(settings)
    try:
        with TestClient(create_app(settings, ledger)) as client:
            yield Api(client, ledger)
    finally:
        ledger.close()


def test_the_yes_that_would_seat_someone_at_too_many_games_is_refused(
    settings: Settings,
) -> None:
    with api_of(msgspec.structs.replace(settings, max_active_games=1)) as api:
        old = with_a_bot(api)
        played_out(api, old, {0: 0, 1: 1})
        api.register(1)
        body = {"variant": "open-hand", "seats": 2}
        busy = api.client.post("/games", json=body, headers=api.auth(1)).json()["game_id"]
        offered = rematch(api, old, 0)  # makes nothing yet: not refused
        assert offered.status_code == 200, offered.text
        written = api.ledger.store.last_position()
        for seat in (1, 1):  # the last yes, which would seat player 1 at a second game
            refused = rematch(api, old, seat)
            assert (refused.status_code, refused.json()["code"]) == (409, "too_many_games")
            assert refused.json()["most"] == 1 and "sits at 1 games" in refused.json()["detail"]
        assert state(api, old) == offered.json()
        assert api.ledger.store.last_position() == written  # nothing was written

        assert api.client.post(f"/games/{busy}/join", headers=api.auth(2)).status_code == 200
        for seat in (1, 2):
            assert api.command(busy, seat, {"type": "vote_cancel"}).status_code == 200
        made = rematch(api, old, 1)  # player 1's other game is over: room again
        assert made.json()["status"] == "made", made.text


def test_alone_with_bots_the_offer_is_refused_at_too_many_games(settings: Settings) -> None:
    with api_of(msgspec.structs.replace(settings, max_active_games=1)) as api:
        api.register(1)
        body = {"variant": "open-hand", "seats": 2, "bots": [{"level": 1}]}
        old = api.client.post("/games", json=body, headers=api.auth(0)).json()["game_id"]
        played_out(api, old, {0: 0})
        api.create(2)  # player 0 waits at another game
        written = api.ledger.store.last_position()
        refused = rematch(api, old, 0)
        assert (refused.status_code, refused.json()["code"]) == (409, "too_many_games")
        assert state(api, old)["status"] == "none"
        assert api.ledger.store.last_position() == written


def test_a_cancelled_game_has_no_rematch(api: Api) -> None:
    game_id = api.started(2)
    for seat in (0, 1):
        response = api.command(game_id, seat, {"type": "vote_cancel"})
        assert response.status_code == 200, response.text
    assert api.view(game_id)["status"] == "cancelled"
    assert rematch(api, game_id, 0).json()["code"] == "game_not_finished"
    assert state(api, game_id)["status"] == "none"


def test_alone_with_bots_the_offer_makes_the_rematch_at_once(api: Api) -> None:
    api.register(1)
    body = {"variant": "open-hand", "seats": 2, "bots": [{"level": 1}]}
    old = api.client.post("/games", json=body, headers=api.auth(0)).json()["game_id"]
    played_out(api, old, {0: 0})
    made = rematch(api, old, 0)
    assert made.json()["status"] == "made", made.text
    new = made.json()["new_game_id"]
    assert seats_of(api, new)[0]["player_id"] == "bot:0"
    assert api.view(new, 0)["seat"] == 1
    assert rematch(api, old, 0).json()["code"] == "rematch_made"


def test_players_seated_by_the_matchmaker_hear_they_were_matched(api: Api) -> None:
    api.register(2)
    for player in (0, 1):
        joined = api.client.post(
            "/matchmaking/queue",
            json={"variant": "open-hand", "min_seats": 2, "max_seats": 2},
            headers=api.auth(player),
        )
        assert joined.status_code == 200, joined.text
    game_id = joined.json()["game_id"]
    assert api.events(game_id)[0]["payload"]["matched_by"]
    for player, seat in ((0, 0), (1, 1)):
        [matched] = [m for m in messages(api, player) if m["kind"] == "matched"]
        assert matched["game_id"] == game_id and matched["seats"] == [seat]
