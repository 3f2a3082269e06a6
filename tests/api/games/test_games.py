"""The whole path of a game over the REST API, on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import random

import pytest

from domain.chain import GENESIS
from tests.support.client import SHORT_GAMES, Api, served_event_hash


def test_four_players_play_open_hand_to_the_end(api: Api) -> None:
    api.register(4)
    game_id = api.create(4)
    waiting = api.view(game_id, 0)
    assert (waiting["status"], waiting["seat"], len(waiting["seats"])) == ("waiting", 0, 1)
    for seat in (1, 2):
        assert (
            api.client.post(f"/games/{game_id}/join", headers=api.auth(seat)).json()["view"][
                "status"
            ]
            == "waiting"
        )
    last = api.client.post(f"/games/{game_id}/join", headers=api.auth(3)).json()
    assert last["view"]["status"] == "active"
    assert last["view"]["seat"] == 3 and len(last["view"]["hand"]) == 5
    assert [e["type"] for e in last["events"]] == [
        "SeatTaken",
        "GameStarted",
        "HandDealt",
        "FirstLeaderChosen",
    ]

    final = api.play_to_end(game_id)
    assert final["status"] == "finished"
    board = api.client.get(f"/games/{game_id}/scoreboard").json()
    assert board["totals"] == final["scores"]
    assert sum(board["totals"]) == 5 and len(board["rows"]) == 5
    assert board["winners"] == final["winners"]
    winners = [s["seat"] for s in board["ranking"] if s["winner"]]
    assert sorted(winners) == sorted(final["winners"])
    assert (
        final["seed"] is not None
        and hashlib.sha256(bytes.fromhex(final["seed"])).hexdigest() == final["seed_commitment"]
    )


def test_every_event_links_into_the_hash_chain(api: Api) -> None:
    game_id = api.started(3)
    api.play_to_end(game_id)
    events = api.events(game_id)  # the game is over: everything is visible to everybody
    previous = GENESIS
    for number, event in enumerate(events, start=1):
        assert (event["version"], event["prev_hash"]) == (number, previous)
        digest = served_event_hash(game_id, event, previous)
        assert digest == event["hash"], f"event {number} does not hash to its recorded hash"
        previous = event["hash"]
    assert events[-1]["type"] == "GameFinished"
    assert api.view(game_id)["chain_head"] == previous


def test_each_seat_sees_only_its_own_hand(api: Api) -> None:
    game_id = api.started(3)
    for seat in range(3):
        dealt = next(e for e in api.events(game_id, seat) if e["type"] == "HandDealt")
        hands = dealt["payload"]["hands"]
        assert hands[seat]["value"] == api.view(game_id, seat)["hand"]
        assert all(
            h["value"] is None and h["salt"] is None for s, h in enumerate(hands) if s != seat
        )
        assert dealt["payload"]["rest"]["value"] is None
        created = next(e for e in api.events(game_id, seat) if e["type"] == "GameCreated")
        assert created["payload"]["seed"]["value"] is None
    leader = api.view(game_id)["to_act"][0]
    card = api.view(game_id, leader)["hand"][0]
    api.command(game_id, leader, {"type": "play", "card": card})
    mine = api.events(game_id, leader)[-1]
    assert mine["command"]["value"] == {"type": "play", "card": card}
    theirs = api.events(game_id, (leader + 1) % 3)[-1]
    assert theirs["command"] == {"owner": leader, "value": None, "salt": None}
    spectator = api.view(game_id)
    assert (
        spectator["seat"] is None
        and spectator["hand"] is None
        and spectator["legal_commands"] == []
    )
    assert spectator["seed"] is None


def test_legal_commands_are_ready_to_send(api: Api) -> None:
    game_id = api.started(2)
    leader = api.view(game_id)["to_act"][0]
    mine = api.view(game_id, leader)
    types = [c["type"] for c in mine["legal_commands"]]
    assert types == ["play"] * 5 + ["vote_cancel", "leave"]
    waiting_seat = 1 - leader
    assert [c["type"] for c in api.view(game_id, waiting_seat)["legal_commands"]] == [
        "vote_cancel",
        "leave",
    ]
    response = api.command(game_id, leader, mine["legal_commands"][2])
    assert response.status_code == 200
    result = response.json()
    assert set(result) == {"game_id", "seat", "version", "chain_head", "events", "view", "log"}
    assert result["version"] == result["view"]["version"] == result["events"][-1]["version"]
    assert result["chain_head"] == result["events"][-1]["hash"]


def test_events_are_paged(api: Api) -> None:
    game_id = api.started(2)
    first = api.client.get(f"/games/{game_id}/events?after=0&limit=2").json()
    assert [e["version"] for e in first["events"]] == [1, 2]
    rest = api.client.get(f"/games/{game_id}/events?after={first['next_after']}&limit=100").json()
    assert rest["events"][0]["version"] == 3
    assert rest["next_after"] == rest["head_version"] == api.view(game_id)["version"]


def test_lobby_filters_by_status_and_variant(api: Api) -> None:
    api.register(2)
    waiting = api.create(2)
    active = api.started(2)
    finished = api.started(2)
    api.play_to_end(finished)
    cancelled = api.create(2)
    assert api.client.post(f"/games/{cancelled}/cancel", headers=api.auth(0)).status_code == 200

    def ids(query: str) -> set[str]:
        response = api.client.get(f"/games{query}")
        assert response.status_code == 200, response.text
        return {entry["game_id"] for entry in response.json()}

    assert ids("?status=waiting") == {waiting}
    assert ids("?status=active") == {active}
    assert ids("?status=finished") == {finished}
    assert ids("?status=cancelled") == {cancelled}
    assert ids("?variant=open-hand") == {waiting, active, finished, cancelled}
    entry = next(e for e in api.client.get("/games?status=finished").json())
    assert entry["winners"] and len(entry["seats"]) == 2


def test_game_summary_is_public(api: Api) -> None:
    game_id = api.started(2)
    summary = api.client.get(f"/games/{game_id}").json()
    assert summary["variant"] == "open-hand" and summary["status"] == "active"
    assert summary["hand"] is None and summary["seat"] is None
    assert summary["version"] == api.view(game_id, 0)["version"]


def test_variants_list_options_with_defaults(api: Api) -> None:
    variants = {v["id"]: v for v in api.client.get("/variants").json()}
    open_hand = variants["open-hand"]
    assert (open_hand["min_players"], open_hand["max_players"]) == (2, 8)
    assert open_hand["options"] == {"first_leader": "cutter", "tiebreak": "shared"}
    assert {"play", "vote_cancel", "leave"} <= set(open_hand["commands"])


def test_health_and_readiness(api: Api) -> None:
    assert api.client.get("/health").json() == {"status": "ok"}
    assert api.client.get("/ready").json() == {"status": "ready"}


def test_cancellation(api: Api) -> None:
    api.register(3)
    game_id = api.create(3)
    refused = api.client.post(f"/games/{game_id}/cancel", headers=api.auth(1))
    assert (refused.status_code, refused.json()["code"]) == (403, "not_creator")
    running = api.started(3)
    refused = api.client.post(f"/games/{running}/cancel", headers=api.auth(0))
    assert (refused.status_code, refused.json()["code"]) == (409, "game_already_started")
    for seat in range(3):
        assert api.command(running, seat, {"type": "vote_cancel"}).status_code == 200
    view = api.view(running)
    assert view["status"] == "cancelled" and view["seed"] is not None
    third = api.started(3)
    by_admin = api.client.post(f"/games/{third}/cancel", headers=api.admin())
    assert by_admin.status_code == 200
    assert by_admin.json()["events"][-1]["actor"] == "admin"
    assert api.view(third)["status"] == "cancelled"


def test_admin_sees_everything_but_cannot_play(api: Api) -> None:
    game_id = api.started(2)
    dealt = next(e for e in api.events(game_id, headers=api.admin()) if e["type"] == "HandDealt")
    assert all(hand["value"] for hand in dealt["payload"]["hands"])
    refused = api.client.post(
        f"/games/{game_id}/commands", json={"type": "leave"}, headers=api.admin()
    )
    assert (refused.status_code, refused.json()["code"]) == (403, "players_only")


@pytest.mark.parametrize("settings", ["sqlite"], indirect=True)  # the store plays no part
@pytest.mark.parametrize("variant", sorted(SHORT_GAMES))
def test_a_client_sending_only_listed_commands_finishes_every_variant(
    api: Api, variant: str
) -> None:
    """Issue 21: a Double Heartbeat bury and every Cancellation Hearts pass were listed only as
    choice forms, which answer 422 when sent as listed: such a client stalled."""
    game_id = api.start(variant)
    final = api.play_listed(game_id, random.Random(variant))
    assert final["status"] == "finished" and final["winners"], final
