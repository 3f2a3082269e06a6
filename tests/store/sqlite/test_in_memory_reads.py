"""A read of the in-memory store (shared cache: a write locks the tables it writes) meeting a
write in flight fails as the library's error, which the service answers with 503, never as
sqlite3's own, which would be a 500."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from eventsourcing.persistence import OperationalError

from service.settings import Settings
from service.store.event_store import Store
from service.store.sqlite import BatchingRecorder
from tests.support.threads import BOUND


def test_a_read_meeting_a_write_in_flight_fails_as_the_librarys_error() -> None:
    store = Store(env=Settings(in_memory=True).store_env())
    recorder = store.recorder
    assert isinstance(recorder, BatchingRecorder)
    writing, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=lambda: recorder.writer.run(hold), daemon=True)

    def hold(cursor: sqlite3.Cursor) -> None:
        cursor.execute("INSERT INTO kept VALUES (1)")
        writing.set()
        release.wait(BOUND)

    try:
        recorder.writer.run(lambda cursor: cursor.execute("CREATE TABLE kept (n INTEGER)"))
        holder.start()
        assert writing.wait(BOUND)
        with pytest.raises(OperationalError, match="locked"):
            store.rows("SELECT n FROM kept")
    finally:
        release.set()
        holder.join(BOUND)
        store.close()
