"""Server-Sent Events: a game's events and views, live, as the viewer may see them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator
from uuid import UUID

import msgspec
from litestar.concurrency import sync_to_thread
from litestar.response import ServerSentEventMessage

from service.application import Cardledger
from service.auth import Principal

PAGE = 100
POLL_SECONDS = 1.0  # also catches writes no wake-up reported (another process on SQLite)
PING_SECONDS = 15.0


async def game_stream(
    ledger: Cardledger, principal: Principal | None, game_id: UUID, after: int
) -> AsyncGenerator[ServerSentEventMessage, None]:
    """Events after ``after`` (ids are versions, so Last-Event-ID resumes), then a view after
    each batch; ends after the game's last event; comment pings keep idle connections open."""
    wakeup = ledger.changes.subscribe()
    last_sent = time.monotonic()
    try:
        while True:
            wakeup.clear()
            page = await sync_to_thread(ledger.events, principal, game_id, after=after, limit=PAGE)
            for event in page.events:
                yield ServerSentEventMessage(
                    event="event", id=event.version, data=msgspec.json.encode(event).decode()
                )
                after = event.version
            if page.events:
                current = await sync_to_thread(ledger.game_view, principal, game_id)
                yield ServerSentEventMessage(
                    event="view", data=msgspec.json.encode(current).decode()
                )
                last_sent = time.monotonic()
                if after < page.head_version:
                    continue
                if current.status in ("finished", "cancelled") and after >= current.version:
                    yield ServerSentEventMessage(event="end", data=current.status)
                    return
            try:
                await asyncio.wait_for(wakeup.wait(), timeout=POLL_SECONDS)
            except TimeoutError:
                if time.monotonic() - last_sent >= PING_SECONDS:
                    yield ServerSentEventMessage(comment="ping", data=None)
                    last_sent = time.monotonic()
    finally:
        ledger.changes.unsubscribe(wakeup)
