"""`cardledger serve --workers 2`: players racing to join one queue through two server
processes on one store are each seated once, every table full, on both stores."""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

import httpx

from service.settings import Settings
from tests.api.games.test_racing_retries import new_connection_each_time
from tests.support.servers import running_server
from tests.support.threads import at_once

RACERS = 18
SEATS = 3
JOIN = {"variant": "open-hand", "min_seats": SEATS, "max_seats": SEATS}


def test_racing_joins_through_two_workers_seat_each_player_once(
    settings: Settings, tmp_path: Path
) -> None:
    settings = Settings(database_url=settings.database_url, data_dir=tmp_path)
    with running_server(settings, tmp_path, workers=2) as base:
        clients = [new_connection_each_time(base) for _ in range(RACERS)]
        try:
            http = clients[0]
            tokens = [
                http.post("/players", json={"name": f"P{i}"}).json()["token"] for i in range(RACERS)
            ]
            auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
            answers = at_once(
                [
                    functools.partial(
                        httpx.Client.post,
                        client,
                        "/matchmaking/queue",
                        json=JOIN,
                        headers=auth[index],
                    )
                    for index, client in enumerate(clients)
                ]
            )
            assert {a.status_code for a in answers} == {200}, [a.text for a in answers]
            statuses = [http.get("/matchmaking/queue", headers=headers).json() for headers in auth]
            games = Counter(
                entry[0]["game_id"] for entry in statuses if entry[0]["status"] == "matched"
            )
            waiting = [entry for entry in statuses if entry[0]["status"] == "waiting"]
            assert len(waiting) < SEATS and set(games.values()) == {SEATS}
            seated: Counter[str] = Counter()
            for game_id in games:
                public = http.get(f"/games/{game_id}").json()
                assert public["status"] == "active"
                events = http.get(f"/games/{game_id}/events").json()["events"]
                for event in events:
                    if event["type"] == "SeatTaken":
                        seated[event["payload"]["player_id"]] += 1
            assert len(seated) == SEATS * len(games) and set(seated.values()) == {1}
        finally:
            for client in clients:
                client.close()
