"""Wake-ups from other processes: LISTEN on the events table's channel (PostgreSQL only).

Writers NOTIFY after their commits (see service/store/postgres.py); a notification only says
"look again": readers then read the log itself, never trusting a notification's content.
"""

from __future__ import annotations

import logging
import threading
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

from service.live.changes import Changes

log = logging.getLogger("cardledger.live")


def conninfo(database_url: str) -> str:
    """The URL without our own query parameters (``?schema=``), for a direct connection."""
    scheme, netloc, path, _, _ = urlsplit(database_url)
    return urlunsplit((scheme, netloc, path, "", ""))


class PostgresListener:
    def __init__(self, database_url: str, channel: str, changes: Changes) -> None:
        self._conninfo = conninfo(database_url)
        self._channel = channel
        self._changes = changes
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pg-listener", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=5) as db:
                    db.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self._channel)))
                    self._changes.notify()  # anything sent while we were not listening
                    while not self._stop.is_set():
                        for _ in db.notifies(timeout=1.0, stop_after=1):
                            self._changes.notify()
            except psycopg.Error:
                log.warning("LISTEN connection lost; reconnecting", exc_info=True)
                self._stop.wait(1.0)
