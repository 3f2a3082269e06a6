"""Wake-ups between processes (PostgreSQL only): writers NOTIFY on the events table's channel
after their commits, and every process LISTENs on it. A notification only says "look again":
readers then read the log itself, never trusting a notification's content.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import sql

from service.store.readers.changes import Changes
from service.worker import Worker

GAP_SECONDS = 0.005  # between two NOTIFYs
WAIT_SECONDS = 1.0  # how long one step listens before it looks at whether to stop
# A server whose network is cut sends nothing, not even a reset: without these a LISTEN or a
# leader's lock check on it waited minutes for TCP to give up (the failover drill's network
# cut left the projector stalled on the old primary).
NETWORK_BOUNDS = {
    "tcp_user_timeout": "5000",
    "keepalives": "1",
    "keepalives_idle": "5",
    "keepalives_interval": "1",
    "keepalives_count": "2",
}


def conninfo(database_url: str) -> str:
    """The URL for a direct connection: without our own query parameter (``?schema=``), with
    several hosts (a failover cluster) to the one that takes writes unless it says, and dropping
    a server that stops answering within seconds unless it says otherwise."""
    scheme, netloc, path, query, _ = urlsplit(database_url)
    kept = [(name, value) for name, value in parse_qsl(query) if name != "schema"]
    if "," in netloc and not any(name == "target_session_attrs" for name, _ in kept):
        kept.append(("target_session_attrs", "read-write"))
    given = {name for name, _ in kept}
    kept.extend((name, value) for name, value in NETWORK_BOUNDS.items() if name not in given)
    return urlunsplit((scheme, netloc, path, urlencode(kept), ""))


class PostgresListener:
    def __init__(
        self, database_url: str, channel: str, changes: Changes, own: str | None = None
    ) -> None:
        """``own``: the payload of this process's NOTIFYs, skipped (its writes woke it)."""
        self._conninfo = conninfo(database_url)
        self._channel = channel
        self._changes = changes
        self._own = own
        self._connection: psycopg.Connection[Any] | None = None
        self.worker = Worker("pg-listener", self._listen, idle=0.0, finish=self._disconnect)

    def start(self) -> None:
        self.worker.start()

    def stop(self) -> None:
        self.worker.stop()

    def _listen(self) -> None:
        """Pass on what arrives within a second (connecting first if needed; a failure drops
        the connection, and the worker tries again after a pause)."""
        try:
            if self._connection is None:
                self._connection = psycopg.connect(
                    self._conninfo, autocommit=True, connect_timeout=5
                )
                self._connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self._channel)))
                self._changes.notify()  # anything sent while we were not listening
            for notice in self._connection.notifies(timeout=WAIT_SECONDS, stop_after=1):
                if notice.payload != self._own:
                    self._changes.notify()
        except psycopg.Error:
            self._disconnect()
            raise

    def _disconnect(self) -> None:
        if self._connection is not None:
            with contextlib.suppress(psycopg.Error):
                self._connection.close()
            self._connection = None


class Notifier:
    """Sends ``NOTIFY <channel>, <origin>`` after writes, from a thread of its own, one per burst.

    A NOTIFY inside a write transaction takes a cluster-wide lock through the commit; sent on its
    own after the commit it costs one small transaction per burst of writes. Listeners treat it
    only as "look again", and poll as well, so a lost one delays, never loses, an event. The
    payload names this store (``origin``): its own process's listener skips it, as the write
    already woke that process's readers (a second wake of every reader, each reading the log,
    on about every command under load).
    """

    def __init__(
        self, connect: Callable[[], contextlib.AbstractContextManager[Any]], channel: str
    ) -> None:
        self._connect = connect
        self.origin = secrets.token_hex(8)
        notify = sql.SQL("NOTIFY {}, {}")
        self._statement = notify.format(sql.Identifier(channel), sql.Literal(self.origin))
        # A failed NOTIFY is not retried: the next write pokes again, and pollers cover the gap.
        self.worker = Worker("pg-notify", self._notify, idle=None, gap=GAP_SECONDS, eager=False)

    def poke(self) -> None:
        self.worker.start()
        self.worker.wake()

    def stop(self) -> None:
        self.worker.stop()

    def _notify(self) -> None:
        with self._connect() as connection:
            connection.execute(self._statement)
