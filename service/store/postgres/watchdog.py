"""Abandons PostgreSQL statements that have not answered in time.

The server's own `statement_timeout` covers a slow database and `tcp_user_timeout` a network
that drops packets, but neither helps when the connection is alive and nothing answers (a stuck
proxy or pooler in between). One watchdog thread shuts the socket of a connection whose statement
has run past its deadline: libpq then reports the connection lost, the request is answered 503
within a bounded time, and the pool replaces the connection.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from service.worker import Worker

TICK = 0.1  # seconds between looks


class StatementTimeout(Exception):
    """A statement was abandoned at its deadline: whether it took effect is unknown."""


class Watchdog:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._watched: dict[int, tuple[float, int]] = {}  # connection id: (deadline, socket fd)
        self._fired: set[int] = set()
        self._lock = threading.Lock()
        self.worker = Worker("pg-watchdog", self._cut_late, idle=TICK, eager=False)

    @contextlib.contextmanager
    def watching(self, connection: Any, seconds: float | None = None) -> Iterator[None]:
        """Run statements on ``connection`` under the deadline (``seconds`` from now, or the
        watchdog's own); raises StatementTimeout instead of the connection error if the
        watchdog cut them short."""
        key = id(connection)
        self.worker.start()
        due = time.monotonic() + (self.seconds if seconds is None else seconds)
        with self._lock:
            self._watched[key] = (due, connection.pgconn.socket)
        try:
            yield
        except Exception as error:
            if self._cut(key):
                raise StatementTimeout(f"no answer within {self.seconds:g} s") from error
            raise
        finally:
            with self._lock:
                self._watched.pop(key, None)
                self._fired.discard(key)

    def _cut(self, key: int) -> bool:
        with self._lock:
            return key in self._fired

    def stop(self) -> None:
        self.worker.stop()

    def _cut_late(self) -> None:
        now = time.monotonic()
        with self._lock:
            late = [(key, fd) for key, (due, fd) in self._watched.items() if due <= now]
            for key, fd in late:
                self._fired.add(key)
                del self._watched[key]
                shut(fd)


def shut(fd: int) -> None:
    """Shut a socket down by its descriptor (a duplicate: the owner's stays valid to close)."""
    with contextlib.suppress(OSError):
        duplicate = socket.socket(fileno=os.dup(fd))
        with contextlib.suppress(OSError):
            duplicate.shutdown(socket.SHUT_RDWR)
        duplicate.close()
