"""SQLite's reading connections: how one is opened, and one per reading thread for the reads of
a single statement on a file.

A single statement reads one snapshot by itself, so it needs no transaction and no pool: the
library's pool took 6.5 µs to hand a connection out and back, half of a short read's 13 µs
(microbenchmark), and every command and view makes a few. Each thread that reads (the store
threads, the background readers: a bounded set, living as long as the process) keeps its own
connection; the store's close closes them all. The price: more connections than the pool kept
(CARDLEDGER_THREADS, 16 by default, plus the background readers, against the pool's 8 and 8 more
at most), each with its own page cache, filled as it reads. An in-memory database keeps to the
pool, whose turns with the writer its shared cache needs (writer.py ``InMemoryWriter``).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError

from service.store.sqlite.writer import translated

# Statements a reading connection keeps compiled: each reader's few, plus the read models' tables.
STATEMENTS_KEPT = 128


def open_reading(db_name: str, timeout: float) -> sqlite3.Connection:
    """A reading connection, in autocommit (the library issues BEGIN itself where it needs
    one), its compiled statements kept: the library's own asked sqlite3 for a cache of one
    statement, so a connection alternating between two reads compiled both every time."""
    try:
        connection = sqlite3.connect(
            database=db_name,
            uri=True,
            check_same_thread=False,
            isolation_level=None,
            cached_statements=STATEMENTS_KEPT,
            timeout=timeout,
        )
    except (sqlite3.Error, TypeError) as error:
        raise InterfaceError(error) from error
    connection.row_factory = sqlite3.Row
    return connection


class ThreadReaders:
    def __init__(self, db_name: str, timeout: float) -> None:
        self._db_name = db_name
        self._timeout = timeout
        self._own = threading.local()
        self._opened: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._closed = False

    def rows(self, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one statement, read on this thread's connection; sqlite3's errors as the
        library's."""
        try:
            return self._connection().execute(statement, params).fetchall()
        except sqlite3.Error as error:
            raise translated(error) from error

    def close(self) -> None:
        with self._lock:
            self._closed = True
            opened, self._opened = self._opened, []
        for connection in opened:
            connection.close()

    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._own, "connection", None)
        if connection is None:
            connection = open_reading(self._db_name, self._timeout)
            with self._lock:
                if self._closed:
                    connection.close()
                    raise OperationalError("the store is closed")
                self._opened.append(connection)
            self._own.connection = connection
        return connection
