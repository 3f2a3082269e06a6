"""Paging where lists grow (a player's games, the leaderboard, replay ranges) and the join's
seat."""

from __future__ import annotations

from tests.client import Api


def test_a_player_lists_the_games_they_sit_at(api: Api) -> None:
    mine = [api.started(2) for _ in range(3)]
    api.register(1)
    other = api.client.post(
        "/games", json={"variant": "open-hand", "seats": 2}, headers=api.auth(2)
    ).json()["game_id"]
    listed = api.client.get("/players/me/games", headers=api.auth(1)).json()
    assert [entry["game_id"] for entry in listed] == list(reversed(mine))
    page = api.client.get(
        "/players/me/games", params={"limit": 2, "offset": 1}, headers=api.auth(1)
    )
    assert [entry["game_id"] for entry in page.json()] == list(reversed(mine))[1:3]
    assert other not in {e["game_id"] for e in listed}
    waiting = api.client.get("/players/me/games", params={"status": "waiting"}, headers=api.auth(2))
    assert [e["game_id"] for e in waiting.json()] == [other]
    assert api.client.get("/players/me/games").status_code == 401


def test_the_leaderboard_pages_with_ranks_counted_from_the_top(api: Api) -> None:
    for _ in range(3):
        game_id = api.started(3)
        api.play_to_end(game_id)
    whole = api.client.get("/leaderboard", params={"variant": "open-hand"}).json()[0]["rows"]
    assert len(whole) == 3
    page = api.client.get(
        "/leaderboard", params={"variant": "open-hand", "limit": 1, "offset": 2}
    ).json()[0]["rows"]
    assert page == whole[2:3]  # its rank is its place in the whole board


def test_replay_frames_up_to_a_version_and_the_join_says_its_seat(api: Api) -> None:
    api.register(3)
    game_id = api.create(3)
    joined = api.client.post(f"/games/{game_id}/join", headers=api.auth(1))
    assert joined.json()["seat"] == 1
    frames = api.client.get(
        f"/games/{game_id}/replay", params={"from": 1, "to": 2}, headers=api.auth(0)
    ).json()
    assert [frame["version"] for frame in frames["frames"]] == [1, 2]
    wrong = api.client.get(f"/games/{game_id}/replay", params={"from": 3, "to": 2})
    assert (wrong.status_code, wrong.json()["code"]) == (422, "invalid_range")
