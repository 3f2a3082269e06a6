"""The lock-free PostgreSQL write path never lets a reader pass over an event that commits later.

Writers no longer queue behind a table lock, so ids can commit out of order; readers only read
below the oldest writer of the events table still in flight. These tests hold transactions open
on purpose.
"""

from __future__ import annotations

import itertools
import random
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder

from service.settings import Settings
from service.store.event_store import Store
from service.store.postgres import HorizonRecorder
from service.store.postgres.listener import conninfo
from tests.support.threads import BOUND, finished, wait_until

pytestmark = pytest.mark.postgres


@pytest.fixture
def recorder(postgres_url: str, tmp_path: Any) -> Iterator[HorizonRecorder]:
    store = Store(env=Settings(database_url=postgres_url, data_dir=tmp_path).store_env())
    assert isinstance(store.recorder, HorizonRecorder)
    yield store.recorder
    store.close()


def stored(count: int = 1) -> list[StoredEvent]:
    game = uuid.uuid4()
    return [
        StoredEvent(originator_id=game, originator_version=v, topic="t", state=b"{}")
        for v in range(1, count + 1)
    ]


class OpenWriter:
    """A writer that inserts through the recorder's own statement and holds its transaction
    open until told to commit or roll back."""

    def __init__(self, recorder: HorizonRecorder, url: str) -> None:
        self.recorder = recorder
        self.connection = psycopg.connect(conninfo(url))  # not autocommit: a transaction
        self.ids: list[int] = []

    def insert(self, events: list[StoredEvent], statement: Any = None) -> None:
        with self.connection.cursor() as cursor:
            statement = statement or self.recorder.insert_sql(len(events))
            cursor.execute(statement, self.recorder.insert_parameters(events))
            self.ids = [row[0] for row in cursor.fetchall()]

    def commit(self) -> None:
        self.connection.commit()
        self.connection.close()

    def rollback(self) -> None:
        self.connection.rollback()
        self.connection.close()


def ids(notifications: Any) -> list[int]:
    return [n.id for n in notifications]


def test_a_reader_waits_for_an_older_open_writer_then_sees_it_first(
    recorder: HorizonRecorder, postgres_url: str
) -> None:
    slow = OpenWriter(recorder, postgres_url)
    slow.insert(stored())
    fast = recorder.insert_events(stored())
    assert fast is not None and fast[0] > slow.ids[0]
    # The fast one has committed, but an older transaction might still commit below it.
    assert recorder.select_notifications(0, 10, inclusive_of_start=False) == []
    slow.commit()
    assert ids(recorder.select_notifications(0, 10, inclusive_of_start=False)) == [
        slow.ids[0],
        fast[0],
    ]


def test_a_rolled_back_writer_releases_the_reader(
    recorder: HorizonRecorder, postgres_url: str
) -> None:
    slow = OpenWriter(recorder, postgres_url)
    slow.insert(stored(2))
    fast = recorder.insert_events(stored())
    assert fast is not None
    assert recorder.select_notifications(0, 10) == []
    slow.rollback()
    assert ids(recorder.select_notifications(0, 10)) == fast


def test_without_the_horizon_the_same_interleaving_loses_an_event(
    recorder: HorizonRecorder, postgres_url: str
) -> None:
    """The test above bites: the library's insert without its table lock (ids from the
    sequence) and its reader (no horizon) skip the slow writer's event for ever."""
    sequence_insert = psycopg.sql.SQL(
        "INSERT INTO {table} (originator_id, originator_version, topic, state)"
        " VALUES (%s, %s, %s, %s) RETURNING notification_id"
    ).format(table=recorder.table)
    slow, fast = OpenWriter(recorder, postgres_url), OpenWriter(recorder, postgres_url)
    slow.insert(stored(), sequence_insert)
    fast.insert(stored(), sequence_insert)
    fast.commit()
    unbounded = PostgresApplicationRecorder.select_notifications
    seen = ids(unbounded(recorder, 0, 10, inclusive_of_start=False))
    assert seen == fast.ids
    slow.commit()
    later = ids(unbounded(recorder, seen[-1], 10, inclusive_of_start=False))
    assert later == [] and slow.ids[0] < seen[-1]  # committed, and never to be read
    assert slow.ids[0] in ids(unbounded(recorder, 0, 10))


def test_slow_writers_with_rollbacks_and_two_tailing_readers(
    recorder: HorizonRecorder, postgres_url: str
) -> None:
    """Eight writers that sleep inside their transactions and roll back one time in ten; two
    readers tail the log. Each reader's ids strictly increase and equal the committed set."""
    committed: list[int] = []
    lock = threading.Lock()
    stop = threading.Event()

    def write(seed: int) -> None:
        rng = random.Random(seed)
        while not stop.is_set():
            writer = OpenWriter(recorder, postgres_url)
            writer.insert(stored(rng.randint(1, 3)))
            time.sleep(rng.random() * 0.02)
            if rng.random() < 0.1:
                writer.rollback()
                continue
            writer.commit()
            with lock:
                committed.extend(writer.ids)

    writers_done = threading.Event()

    def read(into: list[int]) -> None:
        position = 0
        give_up = time.monotonic() + BOUND
        while time.monotonic() < give_up:
            if writers_done.is_set() and len(into) >= len(committed):
                return
            batch = ids(recorder.select_notifications(position, 50, inclusive_of_start=False))
            into.extend(batch)
            if batch:
                position = batch[-1]
            else:
                time.sleep(0.001)

    seen: list[list[int]] = [[], []]
    writers = [threading.Thread(target=write, args=(seed,), daemon=True) for seed in range(8)]
    readers = [threading.Thread(target=read, args=(into,), daemon=True) for into in seen]
    for thread in writers + readers:
        thread.start()
    try:
        # Three seconds and a hundred commits at least (a loaded machine commits fewer).
        time.sleep(3)
        wait_until(lambda: len(committed) > 100, "a hundred commits")
    finally:
        stop.set()
        finished(writers)
        writers_done.set()
        finished(readers)
    for into in seen:
        assert all(a < b for a, b in itertools.pairwise(into))
        assert into == sorted(committed)


def held_open(url: str, *, writes_elsewhere: bool = False) -> psycopg.Connection[Any]:
    """A session that begins a transaction, takes a transaction id, and stays open (what an
    operator's forgotten psql does), optionally after writing a table of its own."""
    session = psycopg.connect(conninfo(url))  # not autocommit
    if writes_elsewhere:
        session.execute("CREATE TEMPORARY TABLE scratch (n int)")
        session.execute("INSERT INTO scratch VALUES (1)")
    session.execute("SELECT txid_current()")
    return session


@pytest.mark.parametrize("elsewhere", [True, False], ids=["other-database", "same-database"])
def test_a_transaction_left_open_that_writes_no_events_holds_no_reader(
    recorder: HorizonRecorder, postgres_url: str, elsewhere: bool
) -> None:
    """The horizon waits for writers of the events table, not for every transaction of the
    cluster (pg_snapshot_xmin did: one open session anywhere froze the read side)."""
    url = _admin_database(postgres_url) if elsewhere else postgres_url
    stray = held_open(url, writes_elsewhere=not elsewhere)
    try:
        written = recorder.insert_events(stored(2))
        assert written is not None
        assert ids(recorder.select_notifications(0, 10)) == written
        assert recorder.holdup() is None
    finally:
        stray.close()


def test_a_writer_seen_without_its_transaction_id_holds_readers_at_the_oldest_transaction(
    recorder: HorizonRecorder, postgres_url: str
) -> None:
    """A writer of the events table whose id does not show in pg_locks may have one already
    (PostgreSQL lists a new id for snapshots before it takes the lock that shows it): readers
    wait for the oldest transaction running. Without this, a CI run lost a row. The writer in
    that gap is held here by a session that takes the table's write lock and no id."""
    stray = held_open(postgres_url)  # an id older than the event below, no lock on the table
    idless = psycopg.connect(conninfo(postgres_url))  # not autocommit: holds what it takes
    try:
        idless.execute(f"LOCK TABLE {recorder._table_name} IN ROW EXCLUSIVE MODE")
        written = recorder.insert_events(stored())
        assert written is not None
        assert ids(recorder.select_notifications(0, 10)) == []
        holdup = recorder.holdup()
        assert holdup is not None and holdup.pid == idless.info.backend_pid
        assert holdup.horizon <= written[0]
        idless.rollback()  # no writer in flight: the stray session holds nothing any more
        assert ids(recorder.select_notifications(0, 10)) == written
    finally:
        idless.close()
        stray.close()


def _admin_database(url: str) -> str:
    """The database the test run's own was created from (another database of the cluster)."""
    base, _, _ = url.partition("?")[0].rpartition("/")
    return f"{base}/postgres"


def test_the_oldest_writer_in_flight_is_named(recorder: HorizonRecorder, postgres_url: str) -> None:
    older, newer = OpenWriter(recorder, postgres_url), OpenWriter(recorder, postgres_url)
    try:
        older.insert(stored())
        newer.insert(stored())
        # A snapshot's xmax is the newest ended transaction's id plus one, so while the ids
        # just below older's (any test's, in this cluster) are still in flight it stays below
        # older's and holds the horizon there. A later writer that has committed lifts xmax
        # above both: the horizon can then only be where the oldest writer holds it.
        assert recorder.insert_events(stored()) is not None
        time.sleep(0.05)
        holdup = recorder.holdup()
        assert holdup is not None
        assert holdup.pid == older.connection.info.backend_pid
        assert holdup.horizon == older.ids[0] >> 20 << 20  # exactly its transaction's first id
        assert holdup.state == "idle in transaction"
        assert holdup.open_seconds is not None and holdup.open_seconds >= 0.04
        assert "INSERT INTO" in (holdup.query or "")
        assert str(holdup.pid) in holdup.describe()
        assert recorder.horizon() == holdup.horizon
    finally:
        older.rollback()
        newer.rollback()
    assert recorder.holdup() is None


# A transaction's events take the ids ``xid << 20 | position``, positions 1 up (the layout the
# module documents, written here independently), so a batch holds at most 2**20 - 1 events: a
# larger one would spill its last id into the next transaction id's range.
POSITIONS = 20


class ReachedTheDatabase(Exception):
    pass


def no_database() -> Any:
    raise ReachedTheDatabase


def test_a_batch_that_would_spill_past_its_transaction_is_refused_before_the_database(
    recorder: HorizonRecorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(recorder, "connection", no_database)
    event = stored()[0]  # one object, repeated: the limit is checked on the count alone
    largest = (1 << POSITIONS) - 1
    with pytest.raises(ReachedTheDatabase):
        recorder.insert_events([event] * largest)
    with pytest.raises(ValueError, match="at most"):
        recorder.insert_events([event] * (largest + 1))


def test_the_positions_of_a_batch_stay_inside_its_transaction(recorder: HorizonRecorder) -> None:
    inserted = recorder.insert_events(stored(3))
    assert inserted is not None
    assert len({i >> POSITIONS for i in inserted}) == 1
    assert [i & ((1 << POSITIONS) - 1) for i in inserted] == [1, 2, 3]
