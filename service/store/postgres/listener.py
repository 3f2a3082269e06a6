"""Wake-ups between processes (PostgreSQL only): writers NOTIFY on the events table's channel
after their commits, and every process LISTENs on it. A notification only says "look again":
readers then read the log itself, never trusting a notification's content.

A listener also says that it listens (a hello on the channel when it connects and every few
seconds), and a process whose own listener hears no other's sends no NOTIFY at all: a process
alone on its database (the default, one API worker) spent a tenth of a command's instructions
sending a NOTIFY that only its own listener heard, and skipped. Readers poll as well, so a
NOTIFY not sent delays an event by a poll at most, never loses it (a process of a version
before hellos is not known to listen, and is woken by its polls alone).
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import sql

from service.store.readers.changes import Changes
from service.worker import Worker

GAP_SECONDS = 0.005  # between two NOTIFYs
WAIT_SECONDS = 1.0  # how long one step listens before it looks at whether to stop
HELLO_SECONDS = 5.0  # a listener says it listens this often...
PRESENCE_SECONDS = 3 * HELLO_SECONDS  # ...and is taken to listen this long after its last hello
HELLO = "listening:"  # a hello's payload: this, then the listener's process's origin
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


class Peers:
    """Whether a listener of another process has said it listens lately, as far as this
    process's own listener has heard. While no listener of this process hears (none started, or
    its connection lost), every write is announced: nobody is known not to listen."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._hearing = False
        self._heard_until = 0.0

    def hearing(self, hearing: bool) -> None:
        """Whether this process's listener is listening (and so would hear a hello)."""
        self._hearing = hearing

    def heard(self) -> None:
        """Another process's listener said it listens."""
        self._heard_until = self._clock() + PRESENCE_SECONDS

    def anyone_else(self) -> bool:
        return not self._hearing or self._clock() < self._heard_until


class PostgresListener:
    def __init__(
        self,
        database_url: str,
        channel: str,
        changes: Changes,
        own: str | None = None,
        peers: Peers | None = None,
    ) -> None:
        """``own``: the payload of this process's NOTIFYs, skipped (its writes woke it);
        ``peers``: told of the other processes' hellos (this process's notifier's)."""
        self._conninfo = conninfo(database_url)
        self._channel = channel
        self._changes = changes
        self._own = own
        self._peers = peers
        self._hello_payload = f"{HELLO}{own or secrets.token_hex(8)}"
        self._hello = sql.SQL("NOTIFY {}, {}").format(
            sql.Identifier(channel), sql.Literal(self._hello_payload)
        )
        self._next_hello = 0.0
        self._hellos: dict[str, float] = {}  # another listener's hello -> when last heard
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
                self._next_hello = 0.0
                self._changes.notify()  # anything sent while we were not listening
            if time.monotonic() >= self._next_hello:
                self._connection.execute(self._hello)
                self._next_hello = time.monotonic() + HELLO_SECONDS
                if self._peers is not None:
                    self._peers.hearing(True)
            for notice in self._connection.notifies(timeout=WAIT_SECONDS, stop_after=1):
                self._heard(notice.payload)
        except psycopg.Error:
            self._disconnect()
            raise

    def _heard(self, payload: str) -> None:
        if payload.startswith(HELLO):
            if payload != self._hello_payload:
                self._met(payload)
        elif payload != self._own:
            self._changes.notify()

    def _met(self, hello: str) -> None:
        """Another listener's hello: a listener not heard lately is answered at once, so that
        a process just started learns of this one now, not at its next hello."""
        now = time.monotonic()
        self._hellos = {key: at for key, at in self._hellos.items() if now - at < PRESENCE_SECONDS}
        if hello not in self._hellos:
            self._next_hello = 0.0
        self._hellos[hello] = now
        if self._peers is not None:
            self._peers.heard()

    def _disconnect(self) -> None:
        if self._peers is not None:
            self._peers.hearing(False)
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
    on about every command under load). Nothing is sent while ``peers`` knows of no other
    process listening.
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
        self.peers = Peers()

    def poke(self) -> None:
        if not self.peers.anyone_else():
            return
        self.worker.start()
        self.worker.wake()

    def stop(self) -> None:
        self.worker.stop()

    def _notify(self) -> None:
        with self._connect() as connection:
            connection.execute(self._statement)
