"""`cardledger serve --workers 2`: the last yes of a rematch sent several times at once through
two server processes on one store makes one game, on both stores."""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

import httpx

from service.settings import Settings
from tests.api.games.test_racing_retries import new_connection_each_time
from tests.support.servers import running_server
from tests.support.threads import at_once

GAMES = 6
RACERS = 4  # the same accept, sent this many times at once per game


def forfeited(http: httpx.Client, auth: list[dict[str, str]]) -> str:
    """A two-seat game that finished when its second player left."""
    game = {"variant": "open-hand", "seats": 2}
    game_id = str(http.post("/games", json=game, headers=auth[0]).json()["game_id"])
    http.post(f"/games/{game_id}/join", headers=auth[1]).raise_for_status()
    left = http.post(f"/games/{game_id}/commands", json={"type": "leave"}, headers=auth[1])
    assert left.json()["view"]["status"] == "finished", left.text
    return game_id


def test_racing_last_yeses_through_two_workers_make_one_game(
    settings: Settings, tmp_path: Path
) -> None:
    settings = Settings(database_url=settings.database_url, data_dir=tmp_path)
    with running_server(settings, tmp_path, workers=2) as base:
        clients = [new_connection_each_time(base) for _ in range(RACERS)]
        try:
            http = clients[0]
            tokens = [http.post("/players", json={"name": n}).json()["token"] for n in "AB"]
            auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
            ended = [forfeited(http, auth) for _ in range(GAMES)]
            for game_id in ended:
                http.post(f"/games/{game_id}/rematch", headers=auth[0]).raise_for_status()
            for game_id in ended:
                answers = at_once(
                    [
                        functools.partial(
                            httpx.Client.post, client, f"/games/{game_id}/rematch", headers=auth[1]
                        )
                        for client in clients
                    ]
                )
                codes = Counter(
                    "made" if a.status_code == 200 else a.json()["code"] for a in answers
                )
                assert codes == Counter({"made": 1, "rematch_made": RACERS - 1}), codes
            lobby = http.get("/games?limit=100").json()
            made = Counter(entry["rematch_of"] for entry in lobby if entry["rematch_of"])
            assert made == Counter(dict.fromkeys(ended, 1))
            for game_id in ended:
                new_game = http.get(f"/games/{game_id}/rematch").json()["new_game_id"]
                assert http.get(f"/games/{new_game}").json()["status"] == "active"
        finally:
            for client in clients:
                client.close()
