"""SQLite, close to the code: a piece of a batch that fails leaves nothing behind, and the read
horizon counts the newest committed write as final (a reader that must reflect it never waits)."""

from __future__ import annotations

import sqlite3
import time
import uuid
from pathlib import Path

import pytest
from eventsourcing.persistence import IntegrityError

from service.application import Cardledger
from service.settings import Settings
from tests.store.sqlite.test_writer import one_batch, one_event, sqlite_store, writer_of
from tests.support.in_process import new_game, players


def kept_rows(cursor: sqlite3.Cursor) -> list[int]:
    return [row[0] for row in cursor.execute("SELECT n FROM kept ORDER BY n")]


def test_a_piece_that_fails_after_writing_leaves_no_row_and_spares_its_batch(
    tmp_path: Path,
) -> None:
    store = sqlite_store(tmp_path)
    writer = writer_of(store)
    writer.run(lambda cursor: cursor.execute("CREATE TABLE kept (n INTEGER)"))

    def keeps(cursor: sqlite3.Cursor) -> None:
        cursor.execute("INSERT INTO kept VALUES (1)")

    def fails(cursor: sqlite3.Cursor) -> None:
        cursor.execute("INSERT INTO kept VALUES (2)")
        raise sqlite3.IntegrityError("a piece that fails after its write")

    try:
        commits = writer.commits
        outcomes = one_batch(writer, [("fails", fails), ("keeps", keeps)])
        assert isinstance(outcomes["fails"], IntegrityError)  # as the library's error
        assert outcomes["keeps"] is None
        assert writer.commits == commits + 2  # the blocker's, then both pieces in one
        assert writer.run(kept_rows) == [1]
    finally:
        store.close()


def test_a_piece_alone_that_fails_after_writing_leaves_no_row_and_commits_nothing(
    tmp_path: Path,
) -> None:
    """A piece with its transaction to itself runs without a savepoint: its failure rolls the
    whole transaction back, and the writer goes on."""
    store = sqlite_store(tmp_path)
    writer = writer_of(store)
    writer.run(lambda cursor: cursor.execute("CREATE TABLE kept (n INTEGER)"))

    def fails(cursor: sqlite3.Cursor) -> None:
        cursor.execute("INSERT INTO kept VALUES (2)")
        raise sqlite3.IntegrityError("a piece that fails after its write")

    try:
        commits = writer.commits
        with pytest.raises(IntegrityError):  # as the library's error
            writer.run(fails)
        assert writer.commits == commits
        writer.run(lambda cursor: cursor.execute("INSERT INTO kept VALUES (1)"))
        assert writer.run(kept_rows) == [1]
    finally:
        store.close()


def test_the_horizon_is_past_the_newest_committed_write(tmp_path: Path) -> None:
    store = sqlite_store(tmp_path)
    try:
        recorder = store.writer
        assert recorder.horizon() > 0  # an empty log: id 0 is no event's
        for _ in range(3):
            ids = recorder.insert_events(one_event())
            assert ids is not None
            assert recorder.horizon() > ids[-1] == recorder.max_notification_id()
    finally:
        store.close()


def test_a_read_after_a_write_does_not_wait_out_its_bound(tmp_path: Path) -> None:
    """A read that must reflect every write returns as soon as the rows do, not at its
    timeout: the newest write is below the horizon once it is committed."""
    ledger = Cardledger(Settings(data_dir=tmp_path, projector="external"))
    try:
        new_game(ledger, players(ledger, 1)[0])
        ledger.read_models.catch_up()
        started = time.monotonic()
        ledger.read_models.wait_for_log(timeout=10)
        assert time.monotonic() - started < 5
    finally:
        ledger.close()


@pytest.mark.parametrize("version", [1, 2])
def test_a_conflicting_event_of_a_batch_leaves_none_of_it(tmp_path: Path, version: int) -> None:
    """Two events saved together where one clashes: neither is kept."""
    store = sqlite_store(tmp_path)
    try:
        game = uuid.uuid4()
        store.recorder.insert_events(one_event(game, version))
        batch = [*one_event(game, 1), *one_event(game, 2)]
        with pytest.raises(IntegrityError):
            store.recorder.insert_events(batch)
        assert [e.originator_version for e in store.recorder.select_events(game)] == [version]
    finally:
        store.close()
