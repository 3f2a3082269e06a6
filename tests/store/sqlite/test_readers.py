"""One-statement reads of a SQLite file on a connection of the reading thread's own
(service/store/sqlite/readers.py): each thread reads on its own connection and sees what the
writer committed, errors come out as the library's, and the store's close closes them all."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from eventsourcing.persistence import OperationalError, PersistenceError

from service.store.sqlite import BatchingRecorder
from service.store.sqlite.readers import ThreadReaders
from tests.store.sqlite.test_writer import one_event, sqlite_store
from tests.support.threads import BOUND


def readers_of(recorder: object) -> ThreadReaders:
    assert isinstance(recorder, BatchingRecorder) and recorder.readers is not None
    return recorder.readers


def test_each_thread_reads_on_its_own_connection_what_was_committed(tmp_path: Path) -> None:
    store = sqlite_store(tmp_path)
    recorder = store.recorder
    readers = readers_of(recorder)
    try:
        event = one_event()
        recorder.insert_events(event)
        seen: dict[str, int] = {}
        connections: set[int] = set()

        def read() -> None:
            seen[threading.current_thread().name] = len(
                recorder.select_events(event[0].originator_id)
            )
            own = getattr(readers._own, "connection", None)  # opened by the read, not by us
            assert own is not None
            connections.add(id(own))

        threads = [threading.Thread(target=read, name=f"reader-{n}") for n in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(BOUND)
        read()  # this thread too, twice: its connection is kept
        read()
        assert seen == {"reader-0": 1, "reader-1": 1, "reader-2": 1, "MainThread": 1}
        assert len(connections) == 4
    finally:
        store.close()


def test_a_failed_read_raises_the_library_s_error(tmp_path: Path) -> None:
    store = sqlite_store(tmp_path)
    try:
        with pytest.raises(PersistenceError):
            readers_of(store.recorder).rows("SELECT * FROM no_such_table")
    finally:
        store.close()


def test_the_store_s_close_closes_every_reading_connection(tmp_path: Path) -> None:
    store = sqlite_store(tmp_path)
    recorder = store.recorder
    readers = readers_of(recorder)
    recorder.horizon()
    opened = readers._connection()
    store.close()
    with pytest.raises(Exception, match="closed"):
        opened.execute("SELECT 1")  # closed by the store's close
    with pytest.raises(OperationalError, match="closed"):
        threading_read(readers)


def threading_read(readers: ThreadReaders) -> None:
    """A read from a thread that had no connection yet, after the close: refused."""
    failure: list[BaseException] = []

    def read() -> None:
        try:
            readers.rows("SELECT 1")
        except BaseException as error:
            failure.append(error)

    thread = threading.Thread(target=read)
    thread.start()
    thread.join(BOUND)
    if failure:
        raise failure[0]


def test_the_store_s_one_statement_reads_go_the_same_way(tmp_path: Path) -> None:
    store = sqlite_store(tmp_path)
    readers = readers_of(store.recorder)
    try:
        assert getattr(readers._own, "connection", None) is None
        assert store.rows("SELECT 1 AS one")[0]["one"] == 1
        assert getattr(readers._own, "connection", None) is not None  # this thread's own
        with pytest.raises(ValueError, match="SELECT only"):
            store.rows("DELETE FROM stored_events")
        with pytest.raises(PersistenceError):
            store.row("SELECT * FROM nowhere")
    finally:
        store.close()
