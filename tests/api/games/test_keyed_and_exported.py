"""Two promises close to their routes: an Idempotency-Key is scoped to where it was used (a
creation, or one game), and a running game's export (every secret in it) is the operator's
alone, whoever else asks and however.

The export refusal is also checked, beside the audit, by
tests/audit/test_verify.py::test_a_running_game_says_what_is_pending."""

from __future__ import annotations

from tests.support.client import Api


def test_one_key_serves_a_creation_and_then_a_play_on_another_game(api: Api) -> None:
    running = api.started(2)
    leader = api.view(running)["to_act"][0]
    key = {"Idempotency-Key": "my-one-key"}
    created = api.client.post(
        "/games", json={"variant": "open-hand", "seats": 2}, headers={**api.auth(leader), **key}
    )
    assert created.status_code == 201, created.text
    card = api.view(running, leader)["hand"][0]
    version = api.view(running)["version"]
    played = api.command(running, leader, {"type": "play", "card": card}, **key)
    assert played.status_code == 200, played.text
    assert played.json()["game_id"] == running != created.json()["game_id"]
    assert api.view(running)["version"] == version + 1
    again = api.command(running, leader, {"type": "play", "card": card}, **key)
    assert again.json() == played.json()  # and within the game the key still answers a retry


def test_a_running_game_is_exported_to_the_operator_only(api: Api) -> None:
    game_id = api.started(2)
    path = f"/games/{game_id}/export"
    exported = api.client.get(path, headers=api.admin())
    assert exported.status_code == 200
    seed = exported.json()["events"][0]["payload"]["seed"]["value"]
    assert seed  # the secret that must not leave before the game is over
    api.register(1)
    stranger = api.auth(2)
    for who in (api.auth(0), api.auth(1), stranger, {}):
        for extra in ({}, {"If-None-Match": "*"}):
            refused = api.client.get(path, headers={**who, **extra})
            assert (refused.status_code, refused.json()["code"]) == (409, "game_not_over")
            assert seed not in refused.text
