"""Many players racing for the last seats of one game: exactly the free seats are taken, each
once, and everyone else hears a coded refusal."""

from __future__ import annotations

import functools
from pathlib import Path

import httpx
import pytest

from service.settings import Settings
from tests.api.games.test_racing_retries import at_once, new_connection_each_time
from tests.support.servers import running_server

RACERS = 12
SEATS = 4
FULL = ("game_full", "game_already_started")


def race_for_seats(base: str, rounds: int) -> int:
    """Wrong outcomes over ``rounds`` games: seats taken twice or not at all, uncoded refusals."""
    clients = [new_connection_each_time(base) for _ in range(RACERS)]
    http = clients[0]
    wrong = 0
    try:
        tokens = [
            http.post("/players", json={"name": f"P{i}"}).json()["token"] for i in range(RACERS + 1)
        ]
        auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
        for _ in range(rounds):
            game_id = http.post(
                "/games", json={"variant": "open-hand", "seats": SEATS}, headers=auth[0]
            ).json()["game_id"]
            join = functools.partial(httpx.Client.post, url=f"/games/{game_id}/join")
            answers = at_once(
                [
                    functools.partial(join, client, headers=auth[index + 1])
                    for index, client in enumerate(clients)
                ]
            )
            seated = [a for a in answers if a.status_code == 200]
            refused = [a for a in answers if a.status_code != 200]
            wrong += sorted(a.json()["seat"] for a in seated) != list(range(1, SEATS))
            wrong += sum(a.status_code != 409 or a.json()["code"] not in FULL for a in refused)
            public = http.get(f"/games/{game_id}").json()
            wrong += public["status"] != "active" or len(public["seats"]) != SEATS
            events = http.get(f"/games/{game_id}/events").json()["events"]
            wrong += [e["version"] for e in events] != list(range(1, len(events) + 1))
    finally:
        for client in clients:
            client.close()
    return wrong


@pytest.mark.parametrize("workers", [1, 2])
def test_racing_joins_fill_exactly_the_free_seats(
    settings: Settings, tmp_path: Path, workers: int
) -> None:
    settings = Settings(database_url=settings.database_url, data_dir=tmp_path)
    with running_server(settings, tmp_path, workers=workers) as base:
        assert race_for_seats(base, rounds=3) == 0
