"""Keeps the read models caught up in the background, one process at a time.

Every API process (inline mode) and every `cardledger project` may run a projector; only the
holder of the leader lock works, the others stand by and take over when it goes away (the lock
is a PostgreSQL session advisory lock, or an flock beside the SQLite file, and dies with its
process). Exactly-once does not depend on this: the position's compare-and-set guarantees it;
the lock only saves the others from folding every event for nothing.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import threading
import time
import zlib
from pathlib import Path

import psycopg

from service.background.read_models import ReadModels
from service.live.changes import Changes
from service.live.listener import conninfo
from service.settings import Settings

log = logging.getLogger("cardledger.read_models")
STANDBY_SECONDS = 1.0
CHECK_SECONDS = 5.0  # how often a leader checks that its session (and lock) still stands


class LeaderLock:
    def __init__(self, settings: Settings, name: str) -> None:
        self._settings = settings
        self._name = name
        self._connection: psycopg.Connection[tuple[object, ...]] | None = None
        self._fd: int | None = None
        self._checked = 0.0

    def held(self) -> bool:
        if self._fd is not None:
            return True
        if self._connection is None:
            return False
        if time.monotonic() - self._checked < CHECK_SECONDS:
            return True
        try:
            self._connection.execute("SELECT 1")
        except psycopg.Error:
            self.release()  # the session is gone, and its lock with it
            return False
        self._checked = time.monotonic()
        return True

    def try_acquire(self) -> bool:
        if self.held():
            return True
        if self._settings.database_url:
            return self._try_postgres(self._settings.database_url)
        return self._try_file()

    def _try_postgres(self, url: str) -> bool:
        schema = url.partition("schema=")[2].partition("&")[0] or "public"
        key = zlib.crc32(f"cardledger-{self._name}:{schema}".encode())
        try:
            connection = psycopg.connect(conninfo(url), autocommit=True, connect_timeout=5)
        except psycopg.Error:
            return False
        row = connection.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
        if row is None or not row[0]:
            connection.close()
            return False
        self._connection = connection
        self._checked = time.monotonic()
        return True

    def _try_file(self) -> bool:
        path = Path(self._settings.data_dir) / f"{self._settings.sqlite_file}.{self._name}.lock"
        fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        if self._connection is not None:
            with contextlib.suppress(psycopg.Error):
                self._connection.close()
            self._connection = None
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None


class ReadModelRunner:
    def __init__(
        self,
        read_models: ReadModels,
        changes: Changes,
        leader: LeaderLock,
        *,
        interval: float = 0.2,
        gap: float = 0.02,
    ) -> None:
        self.read_models = read_models
        self.changes = changes
        self.leader = leader
        self.interval = interval
        self.gap = gap
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self.run, name="read-models", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.changes.notify()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        self.leader.release()

    def run(self) -> None:
        count = self.changes.count
        while not self._stop.is_set():
            if not self.leader.try_acquire():
                self._stop.wait(STANDBY_SECONDS)
                continue
            try:
                self.read_models.catch_up()
            except Exception:
                log.exception("read model update failed; retrying")
                self._stop.wait(1.0)
            self._stop.wait(self.gap)  # batches of events, not one read per write
            count = self.changes.wait(count, self.interval)
