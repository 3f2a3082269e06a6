"""The tail of the log kept for a process's background readers: one read of the database serves
them all, with exactly the database's answers. A row is known only once final (below the
horizon); "nothing more" is told to a reader only from a read started after the last change
heard of and after that reader's previous answer; topics are filtered in memory; memory is
bounded; readers in threads each see every row once; another store's writes are seen."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator, Sequence

import pytest
from eventsourcing.persistence import Notification, StoredEvent

from domain.events import CardPlayed, GameCreated, GameFinished, topic
from service.settings import Settings
from service.store.event_store import Store
from service.store.readers.changes import Changes
from service.store.readers.tail import FILL, KEPT, Tail

KEPT_TOPICS = ("a", "b")


class Log:
    """A database's notification log: rows with ids, some still in flight (PostgreSQL's ids
    come from transaction ids: a lower one may commit after a higher one)."""

    def __init__(self) -> None:
        self.committed: dict[int, str] = {}
        self.in_flight: set[int] = set()
        self.reads = 0
        self.lock = threading.Lock()

    def write(self, position: int, row_topic: str = "a") -> None:
        with self.lock:
            self.committed[position] = row_topic

    def write_all(self, positions: range, topics: Sequence[str] | None = None) -> None:
        for position, row_topic in zip(positions, topics or ["a"] * len(positions), strict=True):
            self.write(position, row_topic)

    def begin(self, position: int) -> None:
        """A write that has its id and has not ended: it holds the horizon."""
        with self.lock:
            self.in_flight.add(position)

    def commit(self, position: int, row_topic: str = "a") -> None:
        with self.lock:
            self.in_flight.discard(position)
            self.committed[position] = row_topic

    def select(self, after: int, limit: int, topics: Sequence[str]) -> list[Notification]:
        """Rows below the horizon (the oldest write in flight) past ``after``, as the
        recorders read them."""
        with self.lock:
            self.reads += 1
            horizon = min(self.in_flight, default=1 << 62)
            found = sorted(
                position
                for position, row_topic in self.committed.items()
                if after < position < horizon and (not topics or row_topic in topics)
            )[:limit]
            return [row(position, self.committed[position]) for position in found]


def row(position: int, row_topic: str) -> Notification:
    return Notification(
        id=position,
        originator_id=uuid.UUID(int=position),
        originator_version=1,
        topic=row_topic,
        state=b"{}",
    )


def asked(
    tail: Tail, reader: str, after: int, limit: int = 100, topics: tuple[str, ...] = KEPT_TOPICS
) -> list[int] | None:
    """What ``reader`` is told past ``after``."""
    return ids(tail.read(reader, after, limit, topics))


def ids(rows: Sequence[Notification] | None) -> list[int] | None:
    return None if rows is None else [r.id for r in rows]


@pytest.fixture
def log() -> Log:
    return Log()


@pytest.fixture
def changes() -> Changes:
    return Changes()


@pytest.fixture
def tail(log: Log, changes: Changes) -> Tail:
    return Tail(log.select, KEPT_TOPICS, changes)


def test_the_readers_after_a_write_share_one_read(log: Log, changes: Changes, tail: Tail) -> None:
    for position in (1, 2, 3):
        log.write(position)
    changes.notify()
    for reader in ("follower", "projector", "sequencer"):
        assert ids(tail.read(reader, 0, 100, KEPT_TOPICS)) == [1, 2, 3]
    assert log.reads == 1
    log.write(4)
    changes.notify()
    for reader in ("follower", "projector", "sequencer"):
        assert ids(tail.read(reader, 3, 100, KEPT_TOPICS)) == [4]
    assert log.reads == 2


def test_nothing_more_is_told_only_from_a_read_after_the_last_change_and_answer(
    log: Log, changes: Changes, tail: Tail
) -> None:
    log.write(1)
    assert asked(tail, "follower", 0) == [1]
    log.write(2)  # another process's write, its NOTIFY not heard (lost, or SQLite's)
    assert asked(tail, "projector", 1) == []  # as of the read it shares
    assert asked(tail, "follower", 1) == [2]  # told nothing more once: its poll reads again
    assert asked(tail, "projector", 1) == [2]
    assert log.reads == 2
    log.write(3)
    changes.notify()  # heard after the last read started: the next reader reads
    assert asked(tail, "sequencer", 0) == [1, 2, 3]
    assert log.reads == 3


def test_a_row_in_flight_holds_back_those_after_it_until_it_ends(
    log: Log, changes: Changes, tail: Tail
) -> None:
    log.write(1)
    log.begin(2)
    log.write(3)  # committed, but after a transaction still in flight: not final yet
    changes.notify()
    assert asked(tail, "follower", 0) == [1]
    assert asked(tail, "projector", 0) == [1]
    log.commit(2)
    changes.notify()
    assert asked(tail, "follower", 1) == [2, 3]
    assert asked(tail, "projector", 1) == [2, 3]
    assert log.reads == 2


def test_full_pages_come_from_memory_whatever_was_heard_since(
    log: Log, changes: Changes, tail: Tail
) -> None:
    log.write_all(range(1, 11))
    assert asked(tail, "follower", 0, 4) == [1, 2, 3, 4]
    changes.notify()  # rows 5 to 8 are final: a page of them is what the database would say
    assert asked(tail, "follower", 4, 4) == [5, 6, 7, 8]
    assert log.reads == 1
    assert asked(tail, "follower", 8, 4) == [9, 10]  # short: read again
    assert log.reads == 2


def test_topics_are_filtered_in_memory_and_others_are_not_answered(
    log: Log, changes: Changes, tail: Tail
) -> None:
    log.write_all(range(1, 6), ["a", "b", "other", "a", "b"])
    assert asked(tail, "follower", 0) == [1, 2, 4, 5]
    assert asked(tail, "sequencer", 0, 100, ("b",)) == [2, 5]
    assert asked(tail, "sequencer-first", 0, 1, ("b",)) == [2]
    assert tail.read("queues", 0, 100, ("other",)) is None
    assert log.reads == 1


def test_a_full_read_of_other_topics_is_passed_over_not_taken_for_the_end(
    log: Log, changes: Changes, tail: Tail
) -> None:
    log.write_all(range(1, FILL + 3), ["other"] * FILL + ["a", "b"])
    assert asked(tail, "follower", 0) == [FILL + 1, FILL + 2]
    assert log.reads == 2  # a read holds every topic: a full one of others is not the end


def test_a_reader_behind_the_kept_rows_asks_the_database(
    log: Log, changes: Changes, tail: Tail
) -> None:
    log.write_all(range(1, 6))
    assert asked(tail, "follower", 3) == [4, 5]
    assert tail.read("sequencer", 2, 100, KEPT_TOPICS) is None


def test_memory_is_bounded_and_a_reader_far_ahead_starts_it_anew(
    log: Log, changes: Changes, tail: Tail
) -> None:
    last = 3 * (KEPT + FILL)
    log.write_all(range(1, last + 1))
    seen: list[int] = []
    while page := tail.read("follower", seen[-1] if seen else 0, 500, KEPT_TOPICS):
        seen += ids(page) or []
        changes.notify()
    assert seen == list(range(1, last + 1))
    assert len(tail._rows) <= KEPT + FILL  # the bound is the point
    assert tail.read("projector", 1, 100, KEPT_TOPICS) is None  # dropped long ago
    reads = log.reads
    log.write_all(range(last + 1, last + FILL + 100))
    changes.notify()
    far = last + FILL + 50  # a reader well past every row kept: the rows from there on
    assert asked(tail, "projector", far) == list(range(far + 1, last + FILL + 100))
    assert log.reads - reads <= 3


def test_a_question_larger_than_the_bound_is_left_to_the_database(
    log: Log, changes: Changes, tail: Tail
) -> None:
    log.write_all(range(1, 2 * (KEPT + FILL)))
    assert tail.read("projector", 0, 2 * (KEPT + FILL), KEPT_TOPICS) is None


def test_readers_in_threads_each_see_every_row_once(log: Log, changes: Changes) -> None:
    tail = Tail(log.select, KEPT_TOPICS, changes)
    total = 3000
    done = threading.Event()

    def write() -> None:
        for position in range(1, total + 1):
            if position % 7 == 0:  # a transaction that ends after a later one
                log.begin(position)
                log.write(position + 1, "b")
                log.commit(position)
            elif position % 7 != 1:
                log.write(position, "other" if position % 5 == 0 else "a")
            if position % 50 == 0:
                changes.notify()
        changes.notify()
        done.set()

    def follow(reader: str, limit: int, seen: list[int]) -> None:
        while True:
            finished = done.is_set()
            page = ids(tail.read(reader, seen[-1] if seen else 0, limit, KEPT_TOPICS))
            assert page is not None
            seen += page
            if finished and not page:
                return

    seen: dict[str, list[int]] = {name: [] for name in ("follower", "projector", "sequencer")}
    threads = [
        threading.Thread(target=follow, args=(name, limit, seen[name]))
        for name, limit in zip(seen, (500, 7, 1000), strict=True)
    ]
    threads.append(threading.Thread(target=write))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    expected = sorted(p for p, t in log.committed.items() if t in KEPT_TOPICS)
    for name, rows in seen.items():
        assert rows == expected, name


def test_decoding_is_once_per_kept_row(log: Log, changes: Changes, tail: Tail) -> None:
    log.write(1)
    decoded: list[int] = []

    def decode(notification: Notification) -> object:
        decoded.append(notification.id)
        return object()

    page = tail.read("follower", 0, 100, KEPT_TOPICS) or []
    first = tail.decoded(page[0], decode)
    assert tail.decoded(page[0], decode) is first
    assert tail.decoded(row(9, "a"), decode) is not tail.decoded(row(9, "a"), decode)
    assert decoded == [1, 9, 9]


@pytest.fixture
def stores(settings: Settings) -> Iterator[tuple[Store, Store]]:
    ours, theirs = Store(env=settings.store_env()), Store(env=settings.store_env())
    yield ours, theirs
    theirs.close()
    ours.close()


def test_another_stores_writes_are_seen_by_every_reader(stores: tuple[Store, Store]) -> None:
    ours, theirs = stores
    game = uuid.uuid4()

    def write(store: Store, version: int, kind: type) -> None:
        store.recorder.insert_events(
            [StoredEvent(game, version, topic(kind), b"{}")]  # not decoded here
        )

    write(ours, 1, GameCreated)
    created = ours.game_notifications(0, 100, reader="follower")
    assert [n.originator_version for n in created] == [1]
    ends = (topic(GameFinished),)
    assert ours.game_notifications(0, 100, ends, reader="sequencer") == []
    write(theirs, 2, CardPlayed)  # another process: no wake-up here
    write(theirs, 3, GameFinished)
    after = created[-1].id
    # Each reader was told "nothing more" once by the read it shared: its next read looks again.
    following = ours.projected_notifications(after, 100, reader="follower")
    assert [n.originator_version for n in following] == [2, 3]
    finished = ours.game_notifications(0, 100, ends, reader="sequencer")
    assert [n.originator_version for n in finished] == [3]
    assert ours.tail.reads == 2


def test_readers_of_a_real_log_see_every_row_of_two_writing_stores_once(
    stores: tuple[Store, Store],
) -> None:
    ours, theirs = stores
    games = [uuid.uuid4() for _ in range(4)]
    done = threading.Event()

    def write(store: Store, game: uuid.UUID) -> None:
        for version in range(1, 41):
            kind = GameCreated if version == 1 else CardPlayed
            store.recorder.insert_events([StoredEvent(game, version, topic(kind), b"{}")])
            if store is ours:
                ours.changes.notify()  # theirs: another process, its NOTIFY never heard

    def follow(reader: str, limit: int, seen: list[int]) -> None:
        # "Nothing more" may come once from a read that started before a write never heard of
        # (theirs), as a poll gets it: the reader's next question reads again. So nothing more
        # is two empty answers in a row to questions asked after the writers ended.
        empty_after_the_writes = 0
        while True:
            finished = done.is_set()
            page = ours.game_notifications(seen[-1] if seen else 0, limit, reader=reader)
            seen += [n.id for n in page]
            empty_after_the_writes = empty_after_the_writes + 1 if finished and not page else 0
            if empty_after_the_writes == 2:
                return

    seen: dict[str, list[int]] = {name: [] for name in ("follower", "projector")}
    readers = [
        threading.Thread(target=follow, args=(name, limit, seen[name]))
        for name, limit in zip(seen, (500, 3), strict=True)
    ]
    writers = [
        threading.Thread(target=write, args=(store, game))
        for store, game in zip([ours, theirs, ours, theirs], games, strict=True)
    ]
    for thread in readers + writers:
        thread.start()
    for thread in writers:
        thread.join(timeout=60)
    done.set()
    for thread in readers:
        thread.join(timeout=60)
    everything = [n.id for n in ours.game_notifications(0, 1000)]
    assert len(everything) == 160
    for name, rows in seen.items():
        assert rows == everything, name
