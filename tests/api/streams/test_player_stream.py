"""A player's one stream of messages against real servers: both games' turns on one stream,
resumed with Last-Event-ID with no gap and no repeat, messages another process wrote, and the
refusals of a bad ticket or none."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.settings import Settings
from tests.api.streams.test_stream import play, sse
from tests.support.client import Api
from tests.support.servers import running_server
from tests.support.threads import BOUND, finished


class Listener(threading.Thread):
    """Follows a player's stream until it has ``until`` game_over messages (or ``stop_after``
    messages, whichever comes first)."""

    def __init__(
        self, url: str, headers: dict[str, str], *, until: int = 1, stop_after: int | None = None
    ) -> None:
        super().__init__(daemon=True)
        self.url, self.headers, self.until, self.stop_after = url, headers, until, stop_after
        self.messages: list[dict[str, Any]] = []
        self.ids: list[str] = []
        self.ready = threading.Event()

    def run(self) -> None:
        with httpx.stream("GET", self.url, headers=self.headers, timeout=BOUND) as response:
            assert response.status_code == 200
            self.ready.set()
            for message in sse(response):
                body = json.loads(message["data"])
                assert message["event"] == body["kind"] and message["id"] == body["id"]
                self.messages.append(body)
                self.ids.append(message["id"])
                if len(self.messages) == self.stop_after:
                    return
                if sum(m["kind"] == "game_over" for m in self.messages) >= self.until:
                    return


@pytest.fixture
def store(settings: Settings, tmp_path: Path) -> tuple[Settings, Path]:
    return Settings(
        database_url=settings.database_url, data_dir=tmp_path, admin_token="t"
    ), tmp_path


def register(http: httpx.Client, *names: str) -> list[dict[str, str]]:
    tokens = [http.post("/players", json={"name": n}).json()["token"] for n in names]
    return [{"Authorization": f"Bearer {token}"} for token in tokens]


def two_seat_game(http: httpx.Client, first: dict[str, str], second: dict[str, str]) -> str:
    created = http.post("/games", json={"variant": "open-hand", "seats": 2}, headers=first)
    game_id = str(created.json()["game_id"])
    assert http.post(f"/games/{game_id}/join", headers=second).status_code == 200
    return game_id


def every_message(http: httpx.Client, auth: dict[str, str]) -> list[dict[str, Any]]:
    """The player's whole history, through the JSON pages."""
    found: list[dict[str, Any]] = []
    after = "0"
    while True:
        page = http.get("/players/me/messages", params={"after": after, "limit": 5}, headers=auth)
        assert page.status_code == 200, page.text
        found += page.json()["messages"]
        after = page.json()["next_after"]
        if after is None:
            return found


def ticket_for(http: httpx.Client, auth: dict[str, str]) -> str:
    issued = http.post("/players/me/stream-ticket", headers=auth)
    assert issued.status_code == 201, issued.text
    return str(issued.json()["ticket"])


def test_one_stream_carries_both_games_turns(store) -> None:
    with running_server(*store) as base, httpx.Client(base_url=base, timeout=10) as http:
        ann, ben, cat = register(http, "Ann", "Ben", "Cat")
        listener = Listener(f"{base}/players/me/stream?ticket={ticket_for(http, ann)}", {}, until=2)
        listener.start()
        assert listener.ready.wait(BOUND)
        first = two_seat_game(http, ann, ben)
        second = two_seat_game(http, ann, cat)
        play(http, first, [ann, ben])
        play(http, second, [ann, cat])
        finished([listener])
        history = every_message(http, ann)
    assert listener.messages == history  # nothing missed, nothing twice, in id order
    for game in (first, second):
        kinds = [m["kind"] for m in history if m["game_id"] == game]
        assert kinds[0] == "game_started" and kinds[-1] == "game_over"
        assert kinds.count("your_turn") >= 2
    turn = next(m for m in history if m["kind"] == "your_turn")
    assert turn["seats"] == [0] and turn["status"] == "active" and turn["version"] > 0


def test_resume_with_last_event_id_after_a_restart_without_gap_or_repeat(store) -> None:
    settings, data_dir = store
    with running_server(settings, data_dir) as base, httpx.Client(base_url=base) as http:
        ann, ben = register(http, "Ann", "Ben")
        url = f"{base}/players/me/stream?after=0"
        before = Listener(url, ann, stop_after=3)
        before.start()
        game = two_seat_game(http, ann, ben)
        play(http, game, [ann, ben], moves=4)
        finished([before])
    with running_server(settings, data_dir) as base, httpx.Client(base_url=base) as http:
        resumed = Listener(f"{base}/players/me/stream", {**ann, "Last-Event-ID": before.ids[-1]})
        resumed.start()
        assert resumed.ready.wait(BOUND)
        play(http, game, [ann, ben])
        finished([resumed])
        history = every_message(http, ann)
    assert before.messages + resumed.messages == history
    assert history[-1]["kind"] == "game_over"


def test_a_stream_hears_messages_another_process_wrote(
    store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader projects nothing (CARDLEDGER_PROJECTOR=external): every message its stream
    sends, the writer's projector wrote."""
    settings, data_dir = store
    monkeypatch.setenv("CARDLEDGER_PROJECTOR", "external")
    with running_server(settings, data_dir) as reader:
        monkeypatch.delenv("CARDLEDGER_PROJECTOR")
        with (
            running_server(settings, data_dir) as writer,
            httpx.Client(base_url=writer, timeout=10) as http,
        ):
            ann, ben = register(http, "Ann", "Ben")
            listener = Listener(f"{reader}/players/me/stream", ann)
            listener.start()
            assert listener.ready.wait(BOUND)
            game = two_seat_game(http, ann, ben)
            play(http, game, [ann, ben])
            finished([listener])
            history = every_message(http, ann)
    assert listener.messages == history and history[0]["kind"] == "game_started"


def test_a_stream_without_a_player_is_refused_with_a_code(api: Api) -> None:
    api.register(1)
    client = api.client
    for headers, params, expected in (
        ({}, {}, (401, "unauthorized")),
        ({}, {"ticket": "forged.ticket"}, (401, "invalid_ticket")),
        (api.admin(), {}, (403, "players_only")),
        ({**api.auth(0), "Last-Event-ID": "yesterday"}, {}, (400, "invalid_last_event_id")),
        ({**api.auth(0), "Last-Event-ID": "9" * 30 + "-a"}, {}, (400, "invalid_last_event_id")),
        (api.auth(0), {"after": "12"}, (422, "invalid_cursor")),
    ):
        refused = client.get("/players/me/stream", headers=headers, params=params)
        assert (refused.status_code, refused.json()["code"]) == expected, (headers, params)
    game_id = api.create(2)
    game_ticket = client.post(f"/games/{game_id}/stream-ticket", headers=api.auth(0))
    refused = client.get("/players/me/stream", params={"ticket": game_ticket.json()["ticket"]})
    assert (refused.status_code, refused.json()["code"]) == (401, "invalid_ticket")
    admin_ticket = client.post("/players/me/stream-ticket", headers=api.admin())
    assert (admin_ticket.status_code, admin_ticket.json()["code"]) == (403, "players_only")
    page = client.get("/players/me/messages", params={"after": "x"}, headers=api.auth(0))
    assert (page.status_code, page.json()["code"]) == (422, "invalid_cursor")


def test_the_page_waits_for_the_rows_and_pages_with_links(api: Api) -> None:
    game_id = api.started(2)
    page = api.client.get("/players/me/messages", params={"limit": 1}, headers=api.auth(0))
    assert page.status_code == 200
    (first,) = page.json()["messages"]
    assert (first["kind"], first["game_id"]) == ("game_started", game_id)
    assert 'rel="next"' in page.headers["Link"]
