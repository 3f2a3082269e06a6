"""Ratings over the API, on both stores (issue 24, "Ratings"): the leaderboard's rating columns
and its sort by rating, a player's ratings, the export re-derived with openskill alone, bot
levels rated, void games not, a leaver last, and a rebuild from the log that comes out
identical."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from typing import Any

from openskill.models import PlackettLuce

from bots.contract import ALGORITHM
from projections.ratings import NEW, RatedSeat, Rating
from service.application import Cardledger
from service.read_models.rating_tables import RatedGame
from service.settings import Settings
from tests.api.bots_and_matchmaking.test_bot_seats import create, ended
from tests.api.read_models.test_read_models import finished_games
from tests.support.client import Api, next_page

BOT_LEVEL_1 = f"bot:level-1:v{ALGORITHM}"  # bots seated today play the current algorithm


def board(api: Api, query: str) -> list[dict[str, Any]]:
    response = api.client.get(f"/leaderboard?variant=open-hand&{query}")
    assert response.status_code == 200, response.text
    return list(response.json()[0]["rows"])


def player_ids(api: Api) -> list[str]:
    return [row["player_id"] for row in board(api, "sort=wins")]


def test_the_leaderboard_shows_ratings_and_sorts_by_them(api: Api) -> None:
    finished_games(api, 3)
    rows = board(api, "sort=rating")
    assert len(rows) == 3
    ratings = [(row["rating"], -row["uncertainty"]) for row in rows]
    assert ratings == sorted(ratings, reverse=True)
    assert [row["rank"] for row in rows] == [1, 2, 3] or len({r[0] for r in ratings}) < 3
    assert all(0 < row["uncertainty"] < 25 / 3 for row in rows), "three games narrow it"
    by_wins = {row["player_id"]: row for row in board(api, "sort=wins")}
    assert {row["player_id"]: row["rating"] for row in rows} == {
        player: row["rating"] for player, row in by_wins.items()
    }
    first = api.client.get("/leaderboard?variant=open-hand&sort=rating&limit=2")
    rest = api.client.get(str(next_page(first)))
    paged = first.json()[0]["rows"] + rest.json()[0]["rows"]
    assert [row["player_id"] for row in paged] == [row["player_id"] for row in rows]
    wrong = api.client.get("/leaderboard?variant=open-hand&sort=luck")
    assert wrong.status_code == 400, wrong.text


def test_a_players_page_lists_their_rating_per_variant(api: Api) -> None:
    finished_games(api, 2)
    player = player_ids(api)[0]
    profile = api.client.get(f"/players/{player}").json()
    assert profile["bot"] is False and profile["name"].startswith("Player ")
    [rated] = profile["ratings"]
    assert rated["variant"] == "open-hand" and rated["games"] == 2
    row = next(r for r in board(api, "sort=rating") if r["player_id"] == player)
    assert (rated["rating"], rated["uncertainty"]) == (row["rating"], row["uncertainty"])
    newcomer = api.client.post("/players", json={"name": "New"}).json()["player_id"]
    assert api.client.get(f"/players/{newcomer}").json()["ratings"] == []
    empty = api.client.get(f"/players/{newcomer}/ratings?variant=open-hand").json()
    assert (empty["rating"], empty["games"]) == (None, [])
    unrated = api.client.get("/players/bot:level-5:v1").json()
    assert (unrated["name"], unrated["bot"], unrated["ratings"]) == ("Bot level 5", True, [])
    for unknown in ("00000000-0000-4000-8000-000000000000", "nobody", "bot:level-9:v1"):
        missing = api.client.get(f"/players/{unknown}")
        assert (missing.status_code, missing.json()["code"]) == (404, "player_not_found")
    poker = api.client.get(f"/players/{player}/ratings?variant=poker")
    assert (poker.status_code, poker.json()["code"]) == (422, "unknown_variant")


def test_the_export_re_derives_the_rating_with_openskill_alone(api: Api) -> None:
    finished_games(api, 3)
    player = player_ids(api)[1]
    first = api.client.get(f"/players/{player}/ratings?variant=open-hand&limit=2")
    rest = api.client.get(str(next_page(first)))
    assert next_page(rest) is None and rest.json()["next_after"] is None
    export = first.json()
    assert export["next_after"] == export["games"][-1]["position"]
    export["games"] += rest.json()["games"]
    model = export["model"]
    assert (model["library"], model["model"]) == ("openskill", "PlackettLuce")
    openskill = PlackettLuce(mu=model["mu"], sigma=model["sigma"], beta=model["beta"], tau=0.0)
    mine = [model["mu"], model["sigma"]]
    positions = [game["position"] for game in export["games"]]
    assert len(positions) == 3 and positions == sorted(positions)
    for game in export["games"]:
        seats = game["seats"]
        [me] = [seat for seat in seats if seat["rated_id"] == player]
        assert me["before"] == mine, "each game starts from the rating the one before left"
        teams = [
            [
                openskill.rating(
                    mu=seat["before"][0],
                    sigma=math.sqrt(
                        seat["before"][1] ** 2
                        + (model["bot_tau"] if seat["bot"] else model["tau"]) ** 2
                    ),
                )
            ]
            for seat in seats
        ]
        after = openskill.rate(teams, ranks=[float(seat["rank"]) for seat in seats])
        for seat, team in zip(seats, after, strict=True):
            assert seat["after"] == [team[0].mu, team[0].sigma]
        mine = me["after"]
    assert export["rating"] == mine
    rated = api.client.get(f"/players/{player}").json()["ratings"][0]
    assert [rated["rating"], rated["uncertainty"]] == mine


def test_void_games_do_not_count_and_a_leaver_counts_last(api: Api) -> None:
    finished_games(api, 1)
    cancelled = api.started(3)
    api.play_once(cancelled)
    response = api.client.post(f"/games/{cancelled}/cancel", headers=api.admin())
    assert response.status_code == 200, response.text
    left = api.started(3)
    api.play_once(left)
    quitter = api.view(left)["to_act"][0]
    assert api.command(left, quitter, {"type": "leave"}).status_code == 200
    api.play_to_end(left)
    players = player_ids(api)
    exports = {
        player: api.client.get(f"/players/{player}/ratings?variant=open-hand").json()
        for player in players
    }
    games = {game["game_id"] for export in exports.values() for game in export["games"]}
    assert cancelled not in games and left in games and len(games) == 2
    [game] = [g for g in next(iter(exports.values()))["games"] if g["game_id"] == left]
    ranks = {seat["seat"]: seat["rank"] for seat in game["seats"]}
    assert ranks[quitter] == 3 and sorted(ranks.values())[-1] == 3
    assert all(rank < 3 for seat, rank in ranks.items() if seat != quitter)


def test_bot_levels_are_rated_and_a_rebuild_is_identical(quiet_api: Api) -> None:
    api = quiet_api
    game_id = create(api, "open-hand", [{"seat": s, "level": 1 + s % 2} for s in range(4)])
    assert game_id.status_code == 201, game_id.text
    models = api.ledger.read_models
    models.catch_up()  # the bots' driver follows the lobby's rows: they must list the game
    assert ended(api, game_id.json()["game_id"])["status"] == "finished"
    finished_games(api, 2)
    models.catch_up()
    bot = api.client.get(f"/players/{BOT_LEVEL_1}").json()
    assert bot["bot"] is True and bot["name"] == "Bot level 1"
    assert [(r["variant"], r["games"]) for r in bot["ratings"]] == [("open-hand", 1)]
    before = (models.all_ratings(), [models.rated_games(p, "open-hand") for p in player_ids(api)])
    assert len(before[0]) == 3 + 2, "three players, two bot levels"
    models.rebuild()
    after = (models.all_ratings(), [models.rated_games(p, "open-hand") for p in player_ids(api)])
    assert after == before


def test_another_process_recomputes_the_same_ratings_from_the_log(
    quiet_api: Api, settings: Settings
) -> None:
    api = quiet_api
    finished_games(api, 3)
    models = api.ledger.read_models
    models.catch_up()
    players = player_ids(api)

    def ratings() -> tuple[object, object]:
        return models.all_ratings(), [models.rated_games(p, "open-hand") for p in players]

    before = ratings()
    models.reset()
    assert models.all_ratings() == []
    env = {**os.environ, "CARDLEDGER_DATA_DIR": str(settings.data_dir)}
    env.pop("CARDLEDGER_DATABASE_URL", None)
    if settings.database_url:
        env["CARDLEDGER_DATABASE_URL"] = settings.database_url
    rebuilt = subprocess.run(
        [sys.executable, "-m", "service.tools.cli", "project", "--rebuild", "--once"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert ratings() == before


def test_current_ratings_of_several_variants_are_found_together(
    ledger: Cardledger,
) -> None:
    ratings = ledger.read_models.tables.ratings
    seats = {"ann": Rating(30.0, 5.0), "bob": Rating(20.0, 6.0)}
    games = [
        RatedGame(
            position=position,
            game_id=f"g{position}",
            variant=variant,
            seats=[
                RatedSeat(
                    rated_id=rated, name=rated, seat=seat, rank=seat, bot=False, before=NEW, after=r
                )
                for seat, (rated, r) in enumerate(seats.items())
            ],
        )
        for position, variant in ((1, "open-hand"), (2, "hearts"))
    ]
    after = {(game.variant, seat.rated_id): seat.after for game in games for seat in game.seats}
    ledger.store.transact(lambda cursor: ratings.record(cursor, games, after))
    wanted = [("open-hand", "ann"), ("hearts", "bob"), ("hearts", "ann"), ("hearts", "cy")]
    found = ratings.current(wanted)
    assert found == {key: after[key] for key in wanted[:3]}
