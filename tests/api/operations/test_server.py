"""The real thing: `cardledger serve` in its own process, driven over HTTP on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from service.settings import Settings
from service.tools.cli import main
from tests.support.servers import running_server


@pytest.fixture
def server(settings: Settings, tmp_path: Path) -> Iterator[str]:
    with running_server(settings, tmp_path) as base:
        yield base


def test_a_game_played_against_a_running_server(server: str) -> None:
    with httpx.Client(base_url=server, timeout=10) as http:
        tokens = [
            http.post("/players", json={"name": name}).json()["token"]
            for name in ("Ann", "Ben", "Cat", "Dan")
        ]
        auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
        game = http.post(
            "/games", json={"variant": "open-hand", "seats": 4}, headers=auth[0]
        ).json()
        game_id = game["game_id"]
        for seat in (1, 2, 3):
            assert (
                http.post(
                    f"/games/{game_id}/join",
                    json={"client_seed": f"seed {seat}"},
                    headers=auth[seat],
                ).status_code
                == 200
            )
        receipts = []
        while (view := http.get(f"/games/{game_id}").json())["status"] == "active":
            seat = view["to_act"][0]
            mine = http.get(f"/games/{game_id}/view", headers=auth[seat]).json()
            command = next(c for c in mine["legal_commands"] if c["type"] == "play")
            result = http.post(
                f"/games/{game_id}/commands", json=command, headers=auth[seat]
            ).json()
            receipts.append((result["version"], result["chain_head"]))
        assert view["status"] == "finished"
        board = http.get(f"/games/{game_id}/scoreboard").json()
        assert board["totals"] == view["scores"] and sum(board["totals"]) == 5
        events = http.get(f"/games/{game_id}/events", params={"limit": 500}).json()["events"]
        hashes = {event["version"]: event["hash"] for event in events}
        assert all(hashes[version] == head for version, head in receipts)
        assert http.get("/games", params={"status": "finished"}).json()[0]["game_id"] == game_id


def test_bots_simulate_games_over_rest(server: str, tmp_path: Path) -> None:
    results = tmp_path / "games.jsonl"
    arguments = [
        "simulate",
        "--url",
        server,
        "--variant",
        "open-hand",
        "--seats",
        "3",
        "--games",
        "2",
        "--output",
        str(results),
    ]
    assert main(arguments) == 0
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert [line["status"] for line in lines] == ["finished", "finished"]
    assert all(line["audit"] == "valid" and sum(line["scores"]) == 5 for line in lines)
