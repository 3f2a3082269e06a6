"""Materialized lobby, scoreboards and leaderboard: exactly once, and rebuilt identically."""

from __future__ import annotations

import pytest

from domain.variants import event_types
from service.read_models.models import ReadModels
from service.settings import Settings
from service.tools.cli import main
from tests.client import Api
from tests.threads import at_once


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


def test_rebuild_from_position_zero_gives_identical_read_models(quiet_api: Api) -> None:
    api = quiet_api
    finished_games(api, 2)
    api.started(2)
    api.create(2)
    models = api.ledger.read_models
    models.catch_up()
    before = snapshot(api)
    models.reset()
    assert models.position() == 0
    assert snapshot(api) != before
    models.catch_up()
    assert snapshot(api) == before


def test_racing_runners_count_exactly_once(quiet_api: Api) -> None:
    api = quiet_api
    finished_games(api, 2)
    api.ledger.read_models.catch_up()
    expected = snapshot(api)
    runners = [ReadModels(api.ledger.store, capacity=100) for _ in range(4)]
    runners[0].reset()
    at_once([runner.catch_up for runner in runners])
    assert snapshot(api) == expected


def test_the_projector_command_rebuilds_in_its_own_process(
    quiet_api: Api,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    api = quiet_api
    finished_games(api, 1)
    api.ledger.read_models.catch_up()
    before = snapshot(api)
    api.ledger.read_models.reset()
    monkeypatch.setenv("CARDLEDGER_DATA_DIR", str(settings.data_dir))
    if settings.database_url:
        monkeypatch.setenv("CARDLEDGER_DATABASE_URL", settings.database_url)
    else:
        monkeypatch.delenv("CARDLEDGER_DATABASE_URL", raising=False)
    assert main(["project", "--rebuild", "--once"]) == 0
    applied = int(capsys.readouterr().out.split("rebuilt from position 0: ")[1].split()[0])
    game_events = api.ledger.store.recorder.select_notifications(
        0, 10_000, topics=tuple(event_types()), inclusive_of_start=False
    )
    assert applied == len(game_events)
    assert snapshot(api) == before
