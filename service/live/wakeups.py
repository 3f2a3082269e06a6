"""Wake-ups for live streams: this process's own writes, and on PostgreSQL every process's.

Readers never trust a notification's content: a wake-up only says "look again", and the reader
reads the game's events from the store after the last version it sent.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from urllib.parse import urlsplit, urlunsplit

import psycopg

log = logging.getLogger("cardledger.live")


class Wakeup:
    """A set of asyncio events, each set whenever something may have been written."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    def subscribe(self) -> asyncio.Event:
        event = asyncio.Event()
        with self._lock:
            self._waiters.add((asyncio.get_running_loop(), event))
        return event

    def unsubscribe(self, event: asyncio.Event) -> None:
        with self._lock:
            self._waiters = {(loop, e) for loop, e in self._waiters if e is not event}

    def notify(self) -> None:
        """Thread-safe: wake every subscriber."""
        with self._lock:
            waiters = list(self._waiters)
        for loop, event in waiters:
            if not loop.is_closed():
                loop.call_soon_threadsafe(event.set)


class PostgresListener:
    """LISTENs on the events table's channel (the store NOTIFYs on each commit); wakes readers."""

    def __init__(self, database_url: str, channel: str, wakeup: Wakeup) -> None:
        scheme, netloc, path, _, _ = urlsplit(database_url)
        self._conninfo = urlunsplit((scheme, netloc, path, "", ""))
        self._channel = channel
        self._wakeup = wakeup
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pg-listener", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True) as connection:
                    connection.execute(
                        psycopg.sql.SQL("LISTEN {}").format(psycopg.sql.Identifier(self._channel))
                    )
                    while not self._stop.is_set():
                        for _ in connection.notifies(timeout=1.0, stop_after=1):
                            self._wakeup.notify()
            except psycopg.Error:
                log.exception("LISTEN connection lost; reconnecting")
                self._stop.wait(1.0)
