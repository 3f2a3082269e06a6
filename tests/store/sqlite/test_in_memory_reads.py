"""The in-memory store's shared cache locks a table for a transaction that writes or reads it,
and a statement meeting that lock fails at once: a read meeting a write in flight, or a write
meeting a read, waits for it instead (a spurious 503 otherwise)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator

import pytest

from service.settings import Settings
from service.store.event_store import Store
from service.store.sqlite import BatchingRecorder
from tests.support.threads import BOUND, finished

# Seconds one side stays in flight for the other to meet it: it ends sooner only if the other
# has finished (it failed). A loaded machine may start the other later, never fail the test.
RACE = 0.5


@pytest.fixture
def store() -> Iterator[Store]:
    store = Store(env=Settings(in_memory=True).store_env())
    assert isinstance(store.recorder, BatchingRecorder)
    store.transact(lambda cursor: cursor.execute("CREATE TABLE kept (n INTEGER)"))
    yield store
    store.close()


def test_a_read_meeting_a_write_in_flight_waits_for_it(store: Store) -> None:
    writing, read = threading.Event(), threading.Event()

    def hold(cursor: sqlite3.Cursor) -> None:
        cursor.execute("INSERT INTO kept VALUES (1)")
        writing.set()
        read.wait(RACE)

    holder = threading.Thread(target=lambda: store.transact(hold), daemon=True)
    holder.start()
    try:
        assert writing.wait(BOUND)
        rows = store.rows("SELECT n FROM kept")
    finally:
        read.set()
        finished([holder])
    assert [tuple(row) for row in rows] == [(1,)]  # read once the write was committed


def test_a_write_meeting_a_read_in_flight_waits_for_it(store: Store) -> None:
    written = threading.Event()
    failures: list[Exception] = []

    def write() -> None:
        try:
            store.transact(lambda cursor: cursor.execute("INSERT INTO kept VALUES (2)"))
        except Exception as error:
            failures.append(error)
        written.set()

    writer = threading.Thread(target=write, daemon=True)
    with store.reading() as cursor:
        cursor.execute("SELECT n FROM kept")
        assert cursor.fetchall() == []
        writer.start()
        written.wait(RACE)
    finished([writer])
    assert not failures
    assert [tuple(row) for row in store.rows("SELECT n FROM kept")] == [(2,)]
