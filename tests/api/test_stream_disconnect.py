"""A live stream whose client goes away while a message is being sent ends at once: its
generator, left waiting at its ``yield`` (the framework's cancellation does not reach it), is
closed after the answer, so its slot and its feed are given back now, not at the garbage
collector's next pass (a client was refused a new stream for minutes on a loaded machine)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from typing import Any

import pytest
from litestar.types import Message

from tests.client import Api


async def answered_to_a_client_gone_mid_message(
    app: Any, path: str, token: str, followed: Callable[[], int]
) -> tuple[list[Message], int]:
    """Requests ``path`` from the ASGI app as a client that goes away while the first part of
    the body is being sent to it (a slow reader: the send is still waiting); and how many
    streams the app still follows the moment the answer ends (the loop still running: when it
    stops, it closes what is left, which would hide a stream left open)."""
    sent: list[Message] = []
    first_part = asyncio.Event()
    asked = False

    async def receive() -> Message:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await first_part.wait()
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)
        if message["type"] == "http.response.body" and message.get("body"):
            first_part.set()
            await asyncio.sleep(60)  # never done: the disconnect cancels it

    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"authorization", f"Bearer {token}".encode())],
        "client": ("192.0.2.7", 50000),
        "server": ("testserver", 80),
        "state": {},
        "extensions": {},
    }
    await asyncio.wait_for(app(scope, receive, send), timeout=30)
    return sent, followed()


@pytest.mark.parametrize("stream", ["game", "player"])
def test_a_stream_whose_client_left_mid_message_is_closed_at_once(api: Api, stream: str) -> None:
    game_id = api.started(2)
    live = api.live
    path, followed = (
        (f"/games/{game_id}/stream", live.feeds.streams)
        if stream == "game"
        else ("/players/me/stream", live.newsroom.streams)
    )
    gc.disable()  # the garbage collector must not be what closes it
    try:
        sent, following = asyncio.run(
            answered_to_a_client_gone_mid_message(api.client.app, path, api.tokens[0], followed)
        )
        assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 200
        assert any(m["type"] == "http.response.body" and m.get("body") for m in sent)
        assert following == 0, "the stream still listens"
    finally:
        gc.enable()
