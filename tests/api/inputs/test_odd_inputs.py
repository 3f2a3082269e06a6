"""Inputs that used to answer 500: wrong JSON types, nesting past the parser's depth, and
numbers written with non-ASCII digits or thousands of them. Each is now a 4xx problem with a
stable code, and changes nothing."""

from __future__ import annotations

from tests.api.inputs.test_bad_input import assert_problem, snapshot
from tests.support.client import Api

ODD_NUMBERS = ["²", "٠", "1²", "9" * 5000, "-1", " 1 2", "1e3", "0x1"]


def test_a_command_type_that_is_not_a_string(api: Api) -> None:
    game_id = api.started(2)
    before = snapshot(api, game_id)
    for kind in ([], {}, 1, None, True):
        answer = api.command(game_id, 0, {"type": kind})
        assert_problem(answer, 422, "unknown_command")
    assert snapshot(api, game_id) == before


def test_json_nested_past_the_parsers_depth(api: Api) -> None:
    deep = b"[" * 8000 + b"]" * 8000  # within the body size cap
    answer = api.client.post("/players", content=deep)  # unauthenticated, too
    assert_problem(answer, 400, "malformed_json")
    game_id = api.started(2)
    before = snapshot(api, game_id)
    answer = api.client.post(f"/games/{game_id}/commands", content=deep, headers=api.auth(0))
    assert_problem(answer, 400, "malformed_json")
    assert snapshot(api, game_id) == before


def test_numbers_are_ascii_digits_everywhere(api: Api) -> None:
    game_id = api.started(2)
    leader = api.view(game_id)["to_act"][0]
    card = api.view(game_id, leader)["hand"][0]
    before = snapshot(api, game_id)
    for odd in ODD_NUMBERS:
        seat = api.client.get(
            f"/games/{game_id}/replay", params={"perspective": f"seat:{odd}"}, headers=api.auth(0)
        )
        assert_problem(seat, 422, "invalid_perspective")
        # Header values go out as UTF-8 bytes, as a client that does not check them sends them.
        matched = api.client.post(
            f"/games/{game_id}/commands",
            json={"type": "play", "card": card},
            headers={**api.auth(leader), "If-Match": odd.encode()},
        )
        assert_problem(matched, 400, "invalid_if_match")
        resumed = api.client.get(
            f"/games/{game_id}/stream", headers={"Last-Event-ID": odd.encode()}
        )
        assert_problem(resumed, 400, "invalid_last_event_id")
    assert snapshot(api, game_id) == before
