"""A reading connection compiles a statement once and keeps it: reads that take turns on one
connection (an aggregate's events, a page of the log) do not compile each other away."""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import StoredEvent

from service.settings import Settings
from service.store import sqlite as sqlite_store
from service.store.event_store import Store


class Compiling(sqlite3.Connection):
    """Counts the statements compiled: sqlite3's cache calls the connection on a miss."""

    compiled: list[str] = []

    def __call__(self, sql: str) -> Any:
        self.compiled.append(sql)
        return super().__call__(sql)


def test_reads_taking_turns_compile_each_statement_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    connect = sqlite3.connect
    monkeypatch.setattr(
        sqlite_store.sqlite3, "connect", lambda *a, **k: connect(*a, **k, factory=Compiling)
    )
    store = Store(env=Settings(data_dir=tmp_path).store_env())
    recorder = store.recorder
    game = uuid.uuid4()
    try:
        recorder.insert_events([StoredEvent(game, 1, "cardledger:GameCreated:v1", b"{}")])
        Compiling.compiled.clear()
        for _ in range(10):
            assert len(recorder.select_events(game)) == 1
            assert len(recorder.select_notifications(start=1, limit=10, topics=["t"])) == 0
    finally:
        store.close()
    assert len(Compiling.compiled) == 2, Compiling.compiled
