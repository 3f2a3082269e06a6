"""Live streams against real servers: in order, no gaps, resumable, across a restart."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest
from litestar.response import ServerSentEventMessage

from service.live import streams
from service.settings import Settings
from tests.support.client import Api
from tests.support.servers import running_server
from tests.support.threads import BOUND, finished


def sse(response: httpx.Response) -> Iterator[dict[str, str]]:
    """Messages of an event stream, as dicts of their fields (comments skipped)."""
    message: dict[str, str] = {}
    for line in response.iter_lines():
        if not line:
            if message:
                yield message
            message = {}
        elif not line.startswith(":"):
            field, _, value = line.partition(":")
            message[field] = value.removeprefix(" ")


class Follower(threading.Thread):
    """Follows a stream in the background until it ends or `stop_after` events."""

    def __init__(
        self, url: str, headers: dict[str, str] | None = None, stop_after: int | None = None
    ):
        super().__init__(daemon=True)
        self.url, self.headers, self.stop_after = url, headers or {}, stop_after
        self.events: list[dict[str, Any]] = []
        self.views: list[dict[str, Any]] = []
        self.ended = False
        self.ready = threading.Event()

    def run(self) -> None:
        with httpx.stream("GET", self.url, headers=self.headers, timeout=BOUND) as response:
            assert response.status_code == 200
            self.ready.set()
            for message in sse(response):
                if message.get("event") == "event":
                    self.events.append(json.loads(message["data"]))
                    if self.stop_after and len(self.events) >= self.stop_after:
                        return
                elif message.get("event") == "view":
                    self.views.append(json.loads(message["data"]))
                elif message.get("event") == "end":
                    self.ended = True
                    return


def setup_game(http: httpx.Client) -> tuple[str, list[dict[str, str]]]:
    tokens = [
        http.post("/players", json={"name": n}).json()["token"] for n in ("Ann", "Ben", "Cat")
    ]
    auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
    game_id = http.post(
        "/games", json={"variant": "open-hand", "seats": 3}, headers=auth[0]
    ).json()["game_id"]
    return game_id, auth


def play(
    http: httpx.Client, game_id: str, auth: list[dict[str, str]], moves: int | None = None
) -> None:
    done = 0
    while (view := http.get(f"/games/{game_id}").json())["status"] == "active":
        if moves is not None and done >= moves:
            return
        seat = view["to_act"][0]
        mine = http.get(f"/games/{game_id}/view", headers=auth[seat]).json()
        command = next(c for c in mine["legal_commands"] if c["type"] == "play")
        assert (
            http.post(f"/games/{game_id}/commands", json=command, headers=auth[seat]).status_code
            == 200
        )
        done += 1


def follow_whole_game(reader: str, http: httpx.Client) -> tuple[Follower, int]:
    """A spectator follows a new game from its first event while it is played through ``http``;
    returns the follower once the stream has ended, and the game's last version."""
    game_id, auth = setup_game(http)
    follower = Follower(f"{reader}/games/{game_id}/stream")
    follower.start()
    assert follower.ready.wait(BOUND)
    for seat in (1, 2):
        http.post(f"/games/{game_id}/join", headers=auth[seat])
    play(http, game_id, auth)
    finished([follower])
    return follower, http.get(f"/games/{game_id}").json()["version"]


@pytest.fixture
def store(settings: Settings, tmp_path: Path) -> tuple[Settings, Path]:
    return Settings(
        database_url=settings.database_url, data_dir=tmp_path, admin_token="t"
    ), tmp_path


def test_a_spectator_follows_a_whole_game_in_order(store) -> None:
    with running_server(*store) as base, httpx.Client(base_url=base, timeout=10) as http:
        follower, head = follow_whole_game(base, http)
        assert follower.ended
        assert [e["version"] for e in follower.events] == list(range(1, head + 1))
        assert follower.views[-1]["status"] == "finished"
        dealt = next(e for e in follower.events if e["type"] == "HandDealt")
        assert all(hand["value"] is None for hand in dealt["payload"]["hands"])


def test_resume_across_a_restart_without_gaps(store) -> None:
    settings, data_dir = store
    with (
        running_server(settings, data_dir) as base,
        httpx.Client(base_url=base, timeout=10) as http,
    ):
        game_id, auth = setup_game(http)
        for seat in (1, 2):
            http.post(f"/games/{game_id}/join", headers=auth[seat])
        play(http, game_id, auth, moves=4)
        first = Follower(f"{base}/games/{game_id}/stream", stop_after=6)
        first.start()
        finished([first])
    # The first server is gone; a new one serves the same store.
    with (
        running_server(settings, data_dir) as base,
        httpx.Client(base_url=base, timeout=10) as http,
    ):
        last = first.events[-1]["version"]
        second = Follower(f"{base}/games/{game_id}/stream", headers={"Last-Event-ID": str(last)})
        second.start()
        assert second.ready.wait(BOUND)
        play(http, game_id, auth)
        finished([second])
        head = http.get(f"/games/{game_id}").json()["version"]
    versions = [e["version"] for e in first.events + second.events]
    assert versions == list(range(1, head + 1))
    assert second.ended


def test_tickets_open_a_seats_stream_without_a_token_in_the_url(store) -> None:
    with running_server(*store) as base, httpx.Client(base_url=base, timeout=10) as http:
        game_id, auth = setup_game(http)
        for seat in (1, 2):
            http.post(f"/games/{game_id}/join", headers=auth[seat])
        issued = http.post(f"/games/{game_id}/stream-ticket", headers=auth[1])
        assert issued.status_code == 201
        ticket = issued.json()["ticket"]
        follower = Follower(f"{base}/games/{game_id}/stream?ticket={ticket}", stop_after=7)
        follower.start()
        finished([follower])
        dealt = next(e for e in follower.events if e["type"] == "HandDealt")
        hands = dealt["payload"]["hands"]
        assert hands[1]["value"] and hands[0]["value"] is None and hands[2]["value"] is None
        other_game, _ = setup_game(http)
        refused = http.get(f"/games/{other_game}/stream?ticket={ticket}")
        assert (refused.status_code, refused.json()["code"]) == (401, "invalid_ticket")
        forged = http.get(f"/games/{game_id}/stream?ticket={ticket[:-2]}xx")
        assert forged.status_code == 401


def test_a_stream_on_one_server_sees_writes_made_through_another(store) -> None:
    settings, data_dir = store
    with (
        running_server(settings, data_dir) as reader,
        running_server(settings, data_dir) as writer,
        httpx.Client(base_url=writer, timeout=10) as http,
    ):
        follower, head = follow_whole_game(reader, http)
    assert follower.ended
    assert [e["version"] for e in follower.events] == list(range(1, head + 1))


def test_idle_streams_get_keep_alive_pings(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streams, "PING_SECONDS", 0.2)
    monkeypatch.setattr(streams, "POLL_SECONDS", 0.05)
    game_id = api.started(2)
    head = api.view(game_id)["version"]

    async def collect() -> list[ServerSentEventMessage]:
        messages = []
        stream = api.live.stream(None, UUID(game_id), 0)
        async for message in stream:
            messages.append(message)
            if message.comment == "ping":
                break
        await stream.aclose()
        return messages

    messages = asyncio.run(asyncio.wait_for(collect(), 10))
    assert [m.id for m in messages if m.event == "event"] == list(range(1, head + 1))
    assert messages[-1].comment == "ping" and messages[-1].data is None
    assert b": ping" in messages[-1].encode()
