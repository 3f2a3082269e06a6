"""SQLite: the library's recorder with its writes made by the process's one writer
(writer.py), its reading connections keeping their compiled statements, and its one-statement
reads of a file made on a connection of the reading thread's own (readers.py).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.persistence import Notification, StoredEvent
from eventsourcing.sqlite import (
    SQLiteApplicationRecorder,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteDatastore,
    SQLiteFactory,
)

from service.store.ranges import notification_range, topics_in, version_range
from service.store.readers.holdup import Holdup
from service.store.sqlite.readers import ThreadReaders, open_reading
from service.store.sqlite.writer import InMemoryWriter, Writer, translated

T = TypeVar("T")


class BatchingRecorder(SQLiteApplicationRecorder):
    """The library's SQLite recorder, its inserts made by the process's one writer."""

    writer: Writer
    readers: ThreadReaders | None = None  # None for an in-memory database: the pool's turns

    def rows(self, statement: str, parameters: Sequence[Any] = ()) -> list[Any]:
        """The rows of one statement, which reads one snapshot by itself, with no transaction
        around it: on a file on the reading thread's own connection; in memory on one of the
        pool's, which takes its turn with the writer. sqlite3's errors as the library's."""
        if self.readers is not None:
            return self.readers.rows(statement, parameters)
        with self.datastore.get_connection(commit=False) as connection:
            try:
                cursor = connection.cursor().sqlite_cursor
                return list(cursor.execute(statement, parameters).fetchall())
            except sqlite3.Error as error:
                raise translated(error) from error

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
        rows = self.rows(statement, params)
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
        rows = self.rows(statement, params)
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
        return int(self.rows(statement, [after, most])[0][0])

    def ping(self) -> None:
        """A read of the file, or an error."""
        self.rows("SELECT 1")

    def horizon(self) -> int:
        """Every notification id below this is final (one writer at a time commits in order)."""
        statement = f"SELECT COALESCE(MAX(rowid), 0) + 1 FROM {self.events_table_name}"
        return int(self.rows(statement)[0][0])

    def holdup(self) -> Holdup | None:
        """Nothing holds the readers back here: the one writer commits in order."""
        return None

    def transact(self, work: Callable[[Any], T]) -> T:
        """Run ``work(cursor)`` in the writer's next transaction."""
        return self.writer.run(work)

    def close(self) -> None:
        self.writer.close()
        if self.readers is not None:
            self.readers.close()


class ReadingPool(SQLiteConnectionPool):
    """The library's pool of reading connections, each keeping its compiled statements.

    The library opens its connections with ``cached_statements=True``, which sqlite3 reads as a
    cache of one statement: a connection that alternates between two reads compiled both again
    every time (a read of the log names ~90 topics; compiling it cost more than running it), a
    twentieth of a command's instructions. Only the cache's size differs from the library's
    connection."""

    def _create_connection(self) -> SQLiteConnection:
        connection = open_reading(self.db_name, self.lock_timeout or 5)
        if not self.is_sqlite_memory_mode and not self.is_journal_mode_wal:
            connection.execute("PRAGMA journal_mode=WAL")  # lasts in the file: once per process
            self.is_journal_mode_wal = True
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
            recorder.readers = ThreadReaders(pool.db_name, busy_timeout)
        if self.env_create_table():
            recorder.create_table()
        return recorder
