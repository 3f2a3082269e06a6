"""Leadership among processes: one process at a time does a piece of background work.

The lock is a PostgreSQL session advisory lock, or an flock beside the SQLite file; either dies
with its process, so a standby takes over when the holder goes away.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
import zlib
from pathlib import Path

import psycopg

from service.settings import Settings
from service.store.postgres.listener import conninfo

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
        if self._settings.in_memory:
            return True  # a private store: no other process can reach it
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
