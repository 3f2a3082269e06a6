"""SQLite: one writer per process, concurrent work committed together, durability explicit.

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
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar
from uuid import UUID

from eventsourcing.persistence import (
    IntegrityError,
    InterfaceError,
    Notification,
    OperationalError,
    PersistenceError,
    StoredEvent,
)
from eventsourcing.sqlite import (
    SQLiteApplicationRecorder,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteDatastore,
    SQLiteFactory,
)

from service.store.ranges import notification_range, topics_in, version_range
from service.store.readers.holdup import Holdup
from service.store.troubles import UNHEARD, Troubles
from service.worker import Worker

T = TypeVar("T")
MAX_BATCH = 512  # pieces of work per transaction
# Statements a reading connection keeps compiled: each reader's few, plus the read models' tables.
STATEMENTS_KEPT = 128
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


class BatchingRecorder(SQLiteApplicationRecorder):
    """The library's SQLite recorder, its inserts made by the process's one writer."""

    writer: Writer

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        rows = [
            (
                e.originator_id.hex if isinstance(e.originator_id, UUID) else e.originator_id,
                e.originator_version,
                e.topic,
                e.state,
            )
            for e in stored_events
        ]

        def insert(cursor: sqlite3.Cursor) -> list[int]:
            ids = []
            for row in rows:
                cursor.execute(self.insert_events_statement, row)
                ids.append(int(cursor.lastrowid or 0))
            return ids

        return self.writer.run(insert)

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        """An aggregate's events, by one SELECT outside any explicit transaction (a single
        statement reads one snapshot; BEGIN and ROLLBACK around it doubled a read's cost)."""
        key = originator_id.hex if isinstance(originator_id, UUID) else originator_id
        tail, params = version_range("?", gt=gt, lte=lte, desc=desc, limit=limit)
        statement = f"SELECT * FROM {self.events_table_name} WHERE originator_id = ?{tail}"
        params.insert(0, key)
        with self.datastore.get_connection(commit=False) as connection:
            rows = connection.cursor().sqlite_cursor.execute(statement, params).fetchall()
        return [
            StoredEvent(
                originator_id=self.convert_originator_id(row["originator_id"]),
                originator_version=row["originator_version"],
                topic=row["topic"],
                state=row["state"],
            )
            for row in rows
        ]

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        """Notifications from ``start`` in id order, by one SELECT outside any explicit
        transaction (as ``select_events``), the topics written into the statement."""
        conditions, order, params = notification_range(
            "?",
            "rowid",
            start=start,
            stop=stop,
            inclusive_of_start=inclusive_of_start,
            topics=tuple(topics),
            limit=limit,
        )
        where = f" WHERE {' AND '.join(conditions)}" if conditions else ""
        statement = f"SELECT rowid, * FROM {self.events_table_name}{where}{order}"
        with self.datastore.get_connection(commit=False) as connection:
            rows = connection.cursor().sqlite_cursor.execute(statement, params).fetchall()
        return [
            Notification(
                id=row["rowid"],
                originator_id=self.convert_originator_id(row["originator_id"]),
                originator_version=row["originator_version"],
                topic=row["topic"],
                state=row["state"],
            )
            for row in rows
        ]

    def count_notifications(self, after: int, topics: Sequence[str], most: int) -> int:
        """How many notifications of these topics are committed past ``after``, counting no
        further than ``most``."""
        statement = (
            f"SELECT COUNT(*) FROM (SELECT 1 FROM {self.events_table_name}"
            f" WHERE rowid > ? AND {topics_in(tuple(topics))} LIMIT ?)"
        )
        with self.datastore.get_connection(commit=False) as connection:
            cursor = connection.cursor().sqlite_cursor
            return int(cursor.execute(statement, [after, most]).fetchone()[0])

    def ping(self) -> None:
        """A read of the file, or an error."""
        with self.datastore.get_connection(commit=False) as connection:
            connection.cursor().sqlite_cursor.execute("SELECT 1").fetchone()

    def horizon(self) -> int:
        """Every notification id below this is final (one writer at a time commits in order)."""
        statement = f"SELECT COALESCE(MAX(rowid), 0) + 1 FROM {self.events_table_name}"
        with self.datastore.get_connection(commit=False) as connection:
            return int(connection.cursor().sqlite_cursor.execute(statement).fetchone()[0])

    def holdup(self) -> Holdup | None:
        """Nothing holds the readers back here: the one writer commits in order."""
        return None

    def transact(self, work: Callable[[Any], T]) -> T:
        """Run ``work(cursor)`` in the writer's next transaction."""
        return self.writer.run(work)

    def close(self) -> None:
        self.writer.close()


class ReadingPool(SQLiteConnectionPool):
    """The library's pool of reading connections, each keeping its compiled statements.

    The library opens its connections with ``cached_statements=True``, which sqlite3 reads as a
    cache of one statement: a connection that alternates between two reads compiled both again
    every time (a read of the log names ~90 topics; compiling it cost more than running it), a
    twentieth of a command's instructions. Only the cache's size differs from the library's
    connection."""

    def _create_connection(self) -> SQLiteConnection:
        try:
            connection = sqlite3.connect(
                database=self.db_name,
                uri=True,
                check_same_thread=False,
                isolation_level=None,  # autocommit: the library issues BEGIN itself
                cached_statements=STATEMENTS_KEPT,
                timeout=self.lock_timeout or 5,
            )
        except (sqlite3.Error, TypeError) as error:
            raise InterfaceError(error) from error
        if not self.is_sqlite_memory_mode and not self.is_journal_mode_wal:
            connection.execute("PRAGMA journal_mode=WAL")  # lasts in the file: once per process
            self.is_journal_mode_wal = True
        connection.row_factory = sqlite3.Row
        return SQLiteConnection(sqlite_conn=connection, max_age=self.max_age)


class LedgerSQLiteFactory(SQLiteFactory):
    """The library's SQLite factory with a larger read pool, whose connections keep their
    statements, and the batching writer."""

    SQLITE_SYNCHRONOUS = "SQLITE_SYNCHRONOUS"
    SQLITE_READERS = "SQLITE_READERS"

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        pool = self.datastore.pool
        readers = int(self.env.get(self.SQLITE_READERS) or "8")
        sizes: dict[str, Any] = {"pool_size": readers, "max_overflow": readers}
        sizes |= {"lock_timeout": pool.lock_timeout, "pool_timeout": float(pool.lock_timeout or 5)}
        self.datastore = SQLiteDatastore(db_name=pool.db_name, **sizes)
        self.datastore.pool = ReadingPool(db_name=pool.db_name, **sizes)

    def application_recorder(self) -> BatchingRecorder:
        recorder = BatchingRecorder(datastore=self.datastore, events_table_name="stored_events")
        pool = self.datastore.pool
        synchronous = (self.env.get(self.SQLITE_SYNCHRONOUS) or "FULL").upper()
        busy_timeout = float(pool.lock_timeout or 5)
        if pool.is_sqlite_memory_mode:
            recorder.writer = InMemoryWriter(
                self.datastore, synchronous=synchronous, busy_timeout=busy_timeout
            )
        else:
            recorder.writer = Writer(
                pool.db_name, synchronous=synchronous, busy_timeout=busy_timeout
            )
        if self.env_create_table():
            recorder.create_table()
        return recorder
