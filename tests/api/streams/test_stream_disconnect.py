"""A live stream whose client goes away gives its slot back as soon as its answer ends, however
early it went: while a message was being sent (the generator then waits at its ``yield``, which
the framework's cancellation does not reach) or before the stream's first read was done (the
generator then ends before its ``finally`` is set up). Either way only the garbage collector
gave the slot back before, and a loaded machine's CI saw a token refused a new stream for over
two minutes. Each stream here is asked for twice with one token allowed one stream: the second
is answered only if the first gave its slot back."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient
from litestar.types import Message

from service.application import Cardledger
from service.http.app import create_app
from service.settings import Limits, Settings
from tests.support.client import Api


@pytest.fixture
def one_stream_each(settings: Settings, ledger: Cardledger) -> Iterator[Api]:
    """The app with one live stream at a time per token, and no other limit."""
    limited = msgspec.structs.replace(
        settings,
        limits=Limits(
            per_address=0, per_token=0, registrations=0, streams_per_address=0, streams_per_token=1
        ),
    )
    with TestClient(create_app(limited, ledger)) as client:
        yield Api(client, ledger)


async def asked_by_a_client_that_leaves(app: Any, path: str, token: str, leaves: str) -> int:
    """Requests ``path`` from the ASGI app as a client that goes away once the answer has
    started (``leaves="at once"``) or while the first part of its body is being sent (``"mid
    message"``: a slow reader, the send still waiting); the answer's status."""
    sent: list[Message] = []
    gone = asyncio.Event()
    asked = False

    async def receive() -> Message:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await gone.wait()
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)
        if message["type"] == "http.response.start" and leaves == "at once":
            gone.set()
        if message["type"] == "http.response.body" and message.get("body"):
            gone.set()
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
    assert sent and sent[0]["type"] == "http.response.start"
    return int(sent[0]["status"])


@pytest.mark.parametrize("stream", ["game", "player"])
@pytest.mark.parametrize("leaves", ["at once", "mid message"])
def test_a_stream_whose_client_left_gives_its_slot_back_at_once(
    one_stream_each: Api, stream: str, leaves: str
) -> None:
    api = one_stream_each
    game_id = api.started(2)
    path = f"/games/{game_id}/stream" if stream == "game" else "/players/me/stream"
    app, token = api.client.app, api.tokens[0]

    def following() -> int:
        return api.live.feeds.streams() + api.live.newsroom.streams()

    async def twice() -> tuple[int, int, int]:
        # All in one running loop, looked at before it runs anything else: a generator dropped
        # while it waits is closed by a task the loop runs later, and a loop that stops closes
        # what is left open, either of which would hide a stream left waiting.
        first = await asked_by_a_client_that_leaves(app, path, token, leaves)
        left_open = following()
        return first, left_open, await asked_by_a_client_that_leaves(app, path, token, "at once")

    gc.disable()  # the garbage collector must not be what gives the slot back
    try:
        assert asyncio.run(twice()) == (200, 0, 200)
    finally:
        gc.enable()
    assert following() == 0
