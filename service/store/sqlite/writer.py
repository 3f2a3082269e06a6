"""SQLite's one writer per process: concurrent work committed together, durability explicit.

SQLite admits one writer at a time and, with ``synchronous=FULL``, pays one fsync per commit.
So every write of this process (game events, records, read models) goes to one thread that
takes whatever is queued, runs each piece in a savepoint of one transaction, and commits once:
a piece that fails (a version conflict) is rolled back alone, and nobody hears of success before
the commit is durable. Other processes on the same file wait for the lock (``BEGIN IMMEDIATE``
with a busy timeout); rowids are issued under that lock, so they commit in order.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from eventsourcing.persistence import IntegrityError, OperationalError, PersistenceError
from eventsourcing.sqlite import SQLiteDatastore

from service.store.troubles import UNHEARD, Troubles
from service.worker import Worker

T = TypeVar("T")
MAX_BATCH = 512  # pieces of work per transaction
SYNCHRONOUS_LEVELS = ("FULL", "NORMAL", "EXTRA")


def translated(error: BaseException) -> BaseException:
    """sqlite3's errors as the library's, which the service maps to answers."""
    if isinstance(error, sqlite3.IntegrityError):
        return IntegrityError(str(error))
    if isinstance(error, sqlite3.OperationalError):
        return OperationalError(str(error))
    if isinstance(error, sqlite3.Error):
        return PersistenceError(str(error))
    return error


class _Work(Generic[T]):
    def __init__(self, run: Callable[[sqlite3.Cursor], T]) -> None:
        self.run = run
        self.result: T | None = None
        self.error: BaseException | None = None
        self.done = threading.Event()


class Writer:
    """The process's one SQLite writing connection and the worker thread that owns it."""

    troubles: Troubles = UNHEARD

    def __init__(self, path: str, *, synchronous: str, busy_timeout: float) -> None:
        if synchronous not in SYNCHRONOUS_LEVELS:
            raise ValueError(f"synchronous is one of {', '.join(SYNCHRONOUS_LEVELS)}")
        self._path = path
        self._synchronous = synchronous
        self._busy_timeout = busy_timeout
        self._queue: deque[_Work[Any]] = deque()
        self._lock = threading.Lock()
        self._stopped = False
        self._connection: sqlite3.Connection | None = None
        self.commits = 0  # transactions committed: fewer than the pieces of work they carried
        self.worker = Worker(
            "sqlite-writer", self._drain, idle=None, eager=False, finish=self._finish
        )
        self.worker.start()

    def run(self, work: Callable[[sqlite3.Cursor], T]) -> T:
        """Run ``work(cursor)`` inside the next transaction; returns once that is committed."""
        item = _Work(work)
        with self._lock:
            if self._stopped:
                raise OperationalError("the store is closed")
            self._queue.append(item)
        self.worker.wake()
        item.done.wait()
        if item.error is not None:
            raise item.error
        return item.result  # type: ignore[return-value]

    def synchronous(self) -> int:
        """The connection's ``PRAGMA synchronous`` (0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA)."""
        return self.run(lambda cursor: int(cursor.execute("PRAGMA synchronous").fetchone()[0]))

    def close(self) -> None:
        """Take no more work; what is queued is still carried out before the thread ends."""
        with self._lock:
            self._stopped = True
        self.worker.stop(timeout=10)

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(
            self._path,
            uri=True,
            check_same_thread=False,
            isolation_level=None,  # we issue BEGIN and COMMIT ourselves
            timeout=0,  # _begin waits for the write lock itself
        )
        connection.row_factory = sqlite3.Row
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute(f"PRAGMA synchronous={self._synchronous}")
        return connection

    def _take(self) -> list[_Work[Any]]:
        with self._lock:
            batch: list[_Work[Any]] = []
            while self._queue and len(batch) < MAX_BATCH:
                batch.append(self._queue.popleft())
            return batch

    def _drain(self) -> None:
        """Commit what is queued, a batch per transaction. Every piece's waiter is released,
        whatever happens: a failure that escapes the batch fails every piece of it."""
        while batch := self._take():
            try:
                self._commit(batch)
            except BaseException as error:
                self._fail(batch, error)
                raise
            finally:
                for item in batch:
                    item.done.set()

    def _finish(self) -> None:
        """The thread's last act: what was queued before the close, then the connection."""
        try:
            self._drain()
        finally:
            if self._connection is not None:
                self._connection.close()

    def _commit(self, batch: list[_Work[Any]]) -> None:
        try:
            cursor = self._begin()
        except sqlite3.Error as error:
            self._fail(batch, error)
            return
        if len(batch) == 1:  # alone in its transaction: no savepoint needed to undo it
            item = batch[0]
            try:
                item.result = item.run(cursor)
            except BaseException as error:
                item.error = translated(error)
                self._roll_back()
                return
        else:
            for item in batch:
                cursor.execute("SAVEPOINT work")
                try:
                    item.result = item.run(cursor)
                except BaseException as error:
                    cursor.execute("ROLLBACK TO work")
                    item.error = translated(error)
                cursor.execute("RELEASE work")
        try:
            cursor.execute("COMMIT")
        except sqlite3.Error as error:
            self._fail(batch, error)
            return
        self.commits += 1

    def _begin(self) -> sqlite3.Cursor:
        """Take the write lock. Another process may hold it: retry every millisecond rather
        than leave it to SQLite's busy handler, whose sleeps grow to 100 ms."""
        if self._connection is None:
            self._connection = self._connect()
        cursor = self._connection.cursor()
        give_up = time.monotonic() + self._busy_timeout
        waited = False
        while True:
            try:
                cursor.execute("BEGIN IMMEDIATE")
                return cursor
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() >= give_up:
                    raise
                if not waited:  # once per transaction that had to wait, not per millisecond
                    waited = True
                    self.troubles.retry("write_lock_wait")
                time.sleep(0.001)

    def _fail(self, batch: list[_Work[Any]], error: BaseException) -> None:
        """Nothing of the batch is durable: every piece hears so (first, before anything here
        that could raise), and the connection is rolled back or, failing that, replaced."""
        for item in batch:
            item.result = None
            if item.error is None:
                item.error = translated(error)
        self.troubles.store_error(
            "write_lock_timeout" if "locked" in str(error) else "write_failed"
        )
        self._roll_back()

    def _roll_back(self) -> None:
        """End the transaction under way with nothing of it kept; a connection that cannot is
        replaced."""
        if self._connection is not None and self._connection.in_transaction:
            try:
                self._connection.rollback()
            except sqlite3.Error:
                self._connection.close()
                self._connection = None


class InMemoryWriter(Writer):
    """The writer of an in-memory database, whose shared cache locks a table for a transaction
    that writes it or reads it: a statement meeting that lock fails at once (the busy timeout
    does not cover it). So each transaction holds the library pool's writer slot, as the
    library's own in-memory writes do: reads wait for the write in flight, and it for them."""

    def __init__(self, datastore: SQLiteDatastore, *, synchronous: str, busy_timeout: float):
        self._datastore = datastore  # before the worker starts
        super().__init__(datastore.pool.db_name, synchronous=synchronous, busy_timeout=busy_timeout)

    def _commit(self, batch: list[_Work[Any]]) -> None:
        with self._datastore.get_connection(commit=True):
            super()._commit(batch)
