"""Each player's stream of messages, live: the messages the read models hold for them, sent in
id order after the one the client saw last.

Streams do not poll the store each on their own. One worker per process (``Newsroom``) reads
which players have messages past the newest position it has seen, at most every quarter
second while someone listens and at once when this process's projector writes messages, and
wakes only those players' streams; a woken stream reads its own messages after its last id.
A stream listens before its first read, so a wake between that read and its wait is not lost.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncGenerator, Callable

import msgspec
from litestar.response import ServerSentEventMessage

from projections.player_messages import parse_message_id
from service.application.messaging.messages import MessageId, PlayerMessages
from service.read_models.models import ReadModels
from service.threads import on_thread
from service.worker import Worker

PAGE = 100
NEWS = 1000  # rows the newsroom reads at once (a command makes a few per game)
POLL_SECONDS = 0.25  # another process's projector moved the rows: no wake-up comes from it
PING_SECONDS = 15.0

Waiter = tuple[asyncio.AbstractEventLoop, asyncio.Event]


class Newsroom:
    """Wakes the streams of players who have new messages (any process's projector wrote)."""

    def __init__(self, read_models: ReadModels) -> None:
        self._read_models = read_models
        self._listeners: dict[str, set[Waiter]] = {}
        self._lock = threading.Lock()
        self._seen: int | None = None  # the newest position read; None while nobody listens
        self.worker = Worker("player-messages", self.step, idle=POLL_SECONDS)
        read_models.messages_written.subscribe(self.worker.wake)

    def streams(self) -> int:
        with self._lock:
            return sum(len(waiters) for waiters in self._listeners.values())

    def listen(self, player_id: str) -> asyncio.Event:
        """From the event loop: an event set whenever the player may have new messages."""
        event = asyncio.Event()
        with self._lock:
            self._listeners.setdefault(player_id, set()).add((asyncio.get_running_loop(), event))
        self.worker.wake()
        return event

    def leave(self, player_id: str, event: asyncio.Event) -> None:
        with self._lock:
            waiters = {w for w in self._listeners.get(player_id, set()) if w[1] is not event}
            if waiters:
                self._listeners[player_id] = waiters
            else:
                self._listeners.pop(player_id, None)

    def step(self) -> None:
        with self._lock:
            if not self._listeners:
                self._seen = None
                return
        if self._seen is None:  # a first listener: every stream reads again from here on
            self._seen = self._read_models.newest_message_position()
            self._wake(None)
        while True:
            news = self._read_models.messages_since(self._seen, NEWS)
            if not news:
                return
            self._wake({player for _, player in news})
            if len(news) < NEWS:
                self._seen = news[-1][0]
                return
            # the last position's rows may go on past this read: read it again
            self._seen = max(self._seen, news[-1][0] - 1)

    def _wake(self, players: set[str] | None) -> None:
        with self._lock:
            chosen = [
                waiter
                for player, waiters in self._listeners.items()
                if players is None or player in players
                for waiter in waiters
            ]
        for loop, event in chosen:
            if not loop.is_closed():
                loop.call_soon_threadsafe(event.set)


async def player_stream(
    messages: PlayerMessages,
    newsroom: Newsroom,
    player_id: str,
    after: MessageId | None,
    *,
    on_end: Callable[[], None] = lambda: None,
) -> AsyncGenerator[ServerSentEventMessage, None]:
    """The player's messages after ``after`` (None: from now on), each with its id (for
    Last-Event-ID) and its kind as the event's name; comment pings keep idle connections open."""
    wakeup = newsroom.listen(player_id)
    try:
        if after is None:
            after = await on_thread(messages.now, player_id)
        last_sent = time.monotonic()
        while True:
            wakeup.clear()
            page = await on_thread(messages.read, player_id, after, PAGE)
            for message in page:
                yield ServerSentEventMessage(
                    event=message.kind, id=message.id, data=msgspec.json.encode(message).decode()
                )
                parsed = parse_message_id(message.id)
                assert parsed is not None
                after = parsed
                last_sent = time.monotonic()
            if len(page) == PAGE:
                continue
            try:
                await asyncio.wait_for(wakeup.wait(), timeout=PING_SECONDS)
            except TimeoutError:
                if time.monotonic() - last_sent >= PING_SECONDS:
                    yield ServerSentEventMessage(comment="ping", data=None)
                    last_sent = time.monotonic()
    finally:
        newsroom.leave(player_id, wakeup)
        on_end()
