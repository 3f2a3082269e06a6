"""`cardledger serve --workers 2` with bots: both processes drive every bot game, the store's
version check lets one write each turn, and the games end, audited valid, on both stores."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import httpx

from service.settings import Settings
from tests.api.operations.test_workers import fresh_connection
from tests.support.client import SHORT_GAMES
from tests.support.servers import running_server
from tests.support.threads import BOUND


def create(http: httpx.Client, auth: dict[str, str], variant: str, bot_seats: range) -> str:
    seats, options = SHORT_GAMES[variant]
    bots = [{"seat": seat, "level": 1} for seat in bot_seats]
    body = {"variant": variant, "seats": seats, "options": options, "bots": bots}
    created = http.post("/games", json=body, headers=auth)
    assert created.status_code == 201, created.text
    return str(created.json()["game_id"])


def play_seat_0(http: httpx.Client, auth: dict[str, str], game_id: str) -> dict[str, Any]:
    """A person at seat 0 sends a random listed command whenever awaited, at the version seen."""
    rng = random.Random(23)
    give_up = time.monotonic() + BOUND
    while (mine := http.get(f"/games/{game_id}/view", headers=auth).json())["status"] == "active":
        assert time.monotonic() < give_up, f"game {game_id} did not end"
        if 0 not in mine["to_act"]:
            time.sleep(0.02)
            continue
        listed = [c for c in mine["legal_commands"] if c["type"] not in ("leave", "vote_cancel")]
        headers = {**auth, "If-Match": str(mine["version"])}
        sent = http.post(f"/games/{game_id}/commands", json=rng.choice(listed), headers=headers)
        assert sent.status_code in (200, 412), sent.text  # 412: a bot moved first
    return dict(mine)


def test_bots_finish_their_games_with_two_workers(settings: Settings, tmp_path: Path) -> None:
    settings = Settings(database_url=settings.database_url, data_dir=tmp_path)
    with running_server(settings, tmp_path, workers=2) as base, fresh_connection(base) as http:
        token = http.post("/players", json={"name": "Ann"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        alone = create(http, auth, "one-up-one-down", range(3))
        against = create(http, auth, "heartbeat", range(1, 3))
        assert play_seat_0(http, auth, against)["status"] == "finished"
        give_up = time.monotonic() + BOUND
        while http.get(f"/games/{alone}").json()["status"] == "active":
            assert time.monotonic() < give_up, f"game {alone} did not end"
            time.sleep(0.1)
        for game_id in (alone, against):
            report = http.get(f"/games/{game_id}/audit").json()
            assert report["verdict"] == "valid", report
