"""Materialized lobby, scoreboards and leaderboard: exactly once, and rebuilt identically."""

from __future__ import annotations

import threading

from service.application import Cardledger
from service.cli import main
from service.read_models import ReadModels
from tests.client import Api


def snapshot(api: Api) -> tuple[object, object, object]:
    lobby = api.client.get("/games").json()
    boards = {
        entry["game_id"]: api.client.get(f"/games/{entry['game_id']}/scoreboard").json()
        for entry in lobby
    }
    leaderboard = api.client.get("/leaderboard").json()
    return lobby, boards, leaderboard


def finished_games(api: Api, count: int) -> list[str]:
    games = []
    for _ in range(count):
        game_id = api.started(3)
        api.play_to_end(game_id)
        games.append(game_id)
    return games


def test_leaderboard_counts_every_finished_game_once(api: Api) -> None:
    games = finished_games(api, 3)
    api.started(3)  # running: not counted
    rows = {
        row["player_id"]: row
        for row in api.client.get("/leaderboard?variant=open-hand").json()[0]["rows"]
    }
    assert len(rows) == 3
    assert all(row["games"] == 3 for row in rows.values())
    wins = sum(row["wins"] for row in rows.values())
    winners = sum(len(api.client.get(f"/games/{g}").json()["winners"]) for g in games)
    assert wins == winners
    assert sum(row["points"] for row in rows.values()) == 3 * 5
    ranks = [
        row["rank"] for row in api.client.get("/leaderboard?variant=open-hand").json()[0]["rows"]
    ]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    everything = api.client.get("/leaderboard").json()
    assert {board["variant"] for board in everything} >= {
        "open-hand",
        "heartbeat",
        "cancellation-hearts",
    }
    refused = api.client.get("/leaderboard?variant=poker")
    assert (refused.status_code, refused.json()["code"]) == (422, "unknown_variant")


def test_scoreboard_is_served_from_the_read_model(api: Api) -> None:
    game_id = api.started(2)
    before = api.client.get(f"/games/{game_id}/scoreboard").json()
    assert before["status"] == "active" and before["rows"] == []
    api.play_to_end(game_id)
    after = api.client.get(f"/games/{game_id}/scoreboard").json()
    assert after["status"] == "finished" and len(after["rows"]) == 5
    missing = api.client.get("/games/00000000-0000-4000-8000-000000000000/scoreboard")
    assert (missing.status_code, missing.json()["code"]) == (404, "game_not_found")


def test_rebuild_from_position_zero_gives_identical_read_models(api: Api) -> None:
    finished_games(api, 2)
    api.started(2)
    api.create(2)
    before = snapshot(api)
    api.ledger.read_models.rebuild()  # the API's own runner may race it: same result either way
    assert snapshot(api) == before


def test_racing_runners_count_exactly_once(api: Api, ledger: Cardledger) -> None:
    finished_games(api, 2)
    expected = api.client.get("/leaderboard?variant=open-hand").json()
    # Start over with four more runners racing the API's own over the same log.
    runners = [ReadModels(ledger.store, ledger.load) for _ in range(4)]
    runners[0].reset()
    threads = [threading.Thread(target=runner.catch_up) for runner in runners]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert api.client.get("/leaderboard?variant=open-hand").json() == expected


def test_the_projector_command_rebuilds_in_its_own_process(
    api: Api, settings, monkeypatch, capsys
) -> None:
    finished_games(api, 1)
    before = snapshot(api)
    monkeypatch.setenv("CARDLEDGER_DATA_DIR", str(settings.data_dir))
    if settings.database_url:
        monkeypatch.setenv("CARDLEDGER_DATABASE_URL", settings.database_url)
    else:
        monkeypatch.delenv("CARDLEDGER_DATABASE_URL", raising=False)
    assert main(["project", "--rebuild", "--once"]) == 0
    assert "rebuilt from position 0" in capsys.readouterr().out
    assert snapshot(api) == before
