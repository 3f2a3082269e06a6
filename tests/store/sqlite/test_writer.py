"""SQLite: durability set explicitly, one writer committing concurrent work together, and a
locked database answered with 503, not 500 or a hang."""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent
from litestar.testing import TestClient

from service.http.app import create_app
from service.settings import Settings
from service.store.event_store import Store
from service.store.sqlite import BatchingRecorder
from service.store.sqlite.writer import Writer
from tests.support.threads import BOUND


def sqlite_store(tmp_path: Path, **settings: object) -> Store:
    return Store(env=Settings(data_dir=tmp_path, **settings).store_env())  # type: ignore[arg-type]


def one_event(game: uuid.UUID | None = None, version: int = 1) -> list[StoredEvent]:
    return [
        StoredEvent(
            originator_id=game or uuid.uuid4(), originator_version=version, topic="t", state=b"{}"
        )
    ]


def writer_of(store: Store) -> Writer:
    assert isinstance(store.recorder, BatchingRecorder)
    return store.recorder.writer


@pytest.mark.parametrize(("setting", "level"), [("FULL", 2), ("NORMAL", 1)])
def test_synchronous_is_set_and_wal_is_on(tmp_path: Path, setting: str, level: int) -> None:
    store = sqlite_store(tmp_path, sqlite_synchronous=setting)
    try:
        assert writer_of(store).synchronous() == level
        mode = writer_of(store).run(lambda c: c.execute("PRAGMA journal_mode").fetchone()[0])
        assert mode == "wal"
    finally:
        store.close()


def test_the_default_is_full(tmp_path: Path) -> None:
    assert Settings.from_env({}).sqlite_synchronous == "FULL"
    assert Settings.from_env({"CARDLEDGER_SQLITE_SYNCHRONOUS": "normal"}).sqlite_synchronous == (
        "NORMAL"
    )


def test_concurrent_saves_commit_together(tmp_path: Path) -> None:
    store = sqlite_store(tmp_path)
    try:
        writer = writer_of(store)
        before = writer.commits
        barrier = threading.Barrier(32)
        results: list[object] = []

        def save() -> None:
            barrier.wait()
            results.append(store.recorder.insert_events(one_event()))

        threads = [threading.Thread(target=save) for _ in range(32)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert len(results) == 32
        assert len(store.recorder.select_notifications(0, 100)) == 32
        assert writer.commits - before < 32  # some commits carried several saves
    finally:
        store.close()


def test_many_writers_at_once_all_hear_and_all_is_kept(tmp_path: Path) -> None:
    """Threads writing over and over, at once: every piece is committed and its writer hears
    of it; none waits for a commit nobody runs."""
    store = sqlite_store(tmp_path)
    writers, rounds = 12, 60
    heard: list[int] = []
    try:

        def write(n: int) -> None:
            for _ in range(rounds):
                store.recorder.insert_events(one_event())
            heard.append(n)

        threads = [threading.Thread(target=write, args=(n,), daemon=True) for n in range(writers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(BOUND)
        assert sorted(heard) == list(range(writers)), "a writer was left waiting"
        kept = store.recorder.select_notifications(0, writers * rounds + 1)
        assert len(kept) == writers * rounds
    finally:
        store.close()


def test_a_conflict_rolls_back_only_its_own_piece(tmp_path: Path) -> None:
    store = sqlite_store(tmp_path)
    try:
        writer = writer_of(store)
        taken = uuid.uuid4()
        store.recorder.insert_events(one_event(taken))
        hold, held = threading.Event(), threading.Event()

        def block(cursor: sqlite3.Cursor) -> None:
            held.set()
            hold.wait(10)

        outcomes: dict[str, object] = {}

        def attempt(name: str, events: list[StoredEvent]) -> None:
            try:
                outcomes[name] = store.recorder.insert_events(events)
            except IntegrityError as error:
                outcomes[name] = error

        blocker = threading.Thread(target=writer.run, args=(block,))
        blocker.start()
        held.wait(10)  # the writer is inside a transaction: the next two queue for the next one
        commits = writer.commits
        clash = threading.Thread(target=attempt, args=("clash", one_event(taken)))
        fine = threading.Thread(target=attempt, args=("fine", one_event()))
        clash.start()
        fine.start()
        time.sleep(0.2)
        hold.set()
        for thread in (blocker, clash, fine):
            thread.join(10)
        assert isinstance(outcomes["clash"], IntegrityError)
        assert isinstance(outcomes["fine"], list)
        assert writer.commits == commits + 2  # the blocker's, then both pieces in one
        assert len(store.recorder.select_notifications(0, 10)) == 2
    finally:
        store.close()


def test_a_locked_database_answers_503_quickly_and_recovers(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, store_timeout=1)
    with TestClient(create_app(settings)) as client:
        assert client.post("/players", json={"name": "Ann"}).status_code == 201
        other = sqlite3.connect(tmp_path / settings.sqlite_file, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        try:
            started = time.monotonic()
            refused = client.post("/players", json={"name": "Ben"})
            waited = time.monotonic() - started
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert refused.status_code == 503
        assert refused.json()["code"] == "store_unavailable"
        assert refused.headers["Retry-After"].isdigit()
        assert waited < 5
        assert client.post("/players", json={"name": "Ben"}).status_code == 201


def test_a_piece_that_breaks_the_transaction_strands_no_waiter(tmp_path: Path) -> None:
    """A piece that ends the transaction under the writer makes its ``ROLLBACK TO`` fail too:
    every piece of that batch hears of the failure (none is durable), and the writer goes on."""
    store = sqlite_store(tmp_path)
    writer = writer_of(store)
    held = threading.Event()
    outcomes: list[BaseException | None] = []

    def hold(cursor: sqlite3.Cursor) -> None:
        held.wait(5)  # the next two pieces queue up behind this one: one batch

    def insert(cursor: sqlite3.Cursor) -> None:
        cursor.execute("CREATE TABLE IF NOT EXISTS kept (n INTEGER)")
        cursor.execute("INSERT INTO kept VALUES (1)")

    def breaking(cursor: sqlite3.Cursor) -> None:
        cursor.execute("COMMIT")  # the savepoints are gone with it
        raise RuntimeError("a piece that fails after ending the transaction")

    def send(work: object) -> None:
        try:
            writer.run(work)  # type: ignore[arg-type]
            outcomes.append(None)
        except BaseException as error:
            outcomes.append(error)

    try:
        blocker = threading.Thread(target=writer.run, args=(hold,))
        blocker.start()
        time.sleep(0.1)
        senders = [threading.Thread(target=send, args=(work,)) for work in (insert, breaking)]
        for sender in senders:
            sender.start()
        time.sleep(0.1)
        held.set()
        for sender in senders:
            sender.join(10)
        assert not any(sender.is_alive() for sender in senders), "a waiter was stranded"
        assert len(outcomes) == 2 and all(outcome is not None for outcome in outcomes)
        assert writer.run(lambda cursor: 42) == 42  # the writer still works
    finally:
        held.set()
        store.close()


Work = Callable[[sqlite3.Cursor], object]


def one_batch(
    writer: Writer, pieces: list[tuple[str, Work]], *, then: Callable[[], None] = lambda: None
) -> dict[str, BaseException | None]:
    """Run ``pieces`` as one batch of the writer's, in this order: a first piece holds the
    writer while they queue, and runs ``then`` just before it lets go. Every waiter must
    return; each piece's outcome is None (it heard success) or what it raised."""
    released = threading.Event()
    outcomes: dict[str, BaseException | None] = {}

    def hold(cursor: sqlite3.Cursor) -> None:
        released.wait(BOUND)
        then()

    def send(name: str, work: Work) -> None:
        try:
            writer.run(work)
            outcomes[name] = None
        except BaseException as error:
            outcomes[name] = error

    blocker = threading.Thread(target=writer.run, args=(hold,), daemon=True)
    senders = [threading.Thread(target=send, args=piece, daemon=True) for piece in pieces]
    try:
        blocker.start()
        time.sleep(0.1)
        for sender in senders:
            sender.start()
            time.sleep(0.05)  # queued in this order
    finally:
        released.set()
    for thread in (blocker, *senders):
        thread.join(BOUND)
    assert not any(sender.is_alive() for sender in senders), "a waiter was stranded"
    return outcomes


class Fault:
    """Failures to inject: each armed keyword raises once, on the first statement starting with
    it after ``skip`` such statements have passed."""

    def __init__(self) -> None:
        self.armed: dict[str, int] = {}
        self.fired: list[str] = []

    def arm(self, keyword: str, skip: int = 0) -> None:
        self.armed[keyword] = skip

    def check(self, statement: str) -> None:
        for keyword, skip in self.armed.items():
            if statement.startswith(keyword):
                if skip:
                    self.armed[keyword] = skip - 1
                    return
                del self.armed[keyword]
                self.fired.append(keyword)
                raise sqlite3.OperationalError(f"injected failure at {keyword}")


class FaultyCursor:
    def __init__(self, cursor: sqlite3.Cursor, fault: Fault) -> None:
        self._cursor = cursor
        self._fault = fault

    def execute(self, statement: str, *args: object) -> sqlite3.Cursor:
        self._fault.check(statement)
        return self._cursor.execute(statement, *args)


class FaultyConnection:
    def __init__(self, connection: sqlite3.Connection, fault: Fault) -> None:
        self._connection = connection
        self._fault = fault

    def cursor(self) -> FaultyCursor:
        return FaultyCursor(self._connection.cursor(), self._fault)

    @property
    def in_transaction(self) -> bool:
        return self._connection.in_transaction

    def rollback(self) -> None:
        self._fault.check("rollback()")
        self._connection.rollback()

    def close(self) -> None:
        self._connection.close()


class FaultyWriter(Writer):
    def __init__(self, path: str, fault: Fault) -> None:
        self.fault = fault
        super().__init__(path, synchronous="FULL", busy_timeout=1)

    def _connect(self) -> sqlite3.Connection:
        return FaultyConnection(super()._connect(), self.fault)  # type: ignore[return-value]


# Every statement of a batch, and the rollback after a failure (reached through a failed
# COMMIT). The blocking batch before still runs RELEASE and COMMIT once armed: one skipped.
STEPS = {
    "BEGIN": {"BEGIN": 0},
    "SAVEPOINT": {"SAVEPOINT": 0},
    "ROLLBACK TO": {"ROLLBACK TO": 0},
    "RELEASE": {"RELEASE": 1},
    "COMMIT": {"COMMIT": 1},
    "rollback()": {"COMMIT": 1, "rollback()": 0},
}


@pytest.mark.parametrize("step", list(STEPS))
def test_a_failure_at_any_step_of_a_batch_strands_no_waiter_and_tells_no_lie(
    tmp_path: Path, step: str
) -> None:
    """A batch of three pieces (a good one, one that raises, another good one) with one
    statement of its transaction failing: every waiter returns, a piece that heard success is
    durable and one that heard failure is not, and the writer goes on."""
    fault = Fault()
    writer = FaultyWriter(str(tmp_path / "faulty.sqlite"), fault)
    writer.run(lambda cursor: cursor.execute("CREATE TABLE kept (n INTEGER)"))

    def arm() -> None:
        for keyword, skip in STEPS[step].items():
            fault.arm(keyword, skip)

    def good(n: int) -> Work:
        return lambda cursor: cursor.execute("INSERT INTO kept VALUES (?)", (n,))

    def bad(cursor: sqlite3.Cursor) -> None:
        raise ValueError("a piece that fails on its own")

    try:
        outcomes = one_batch(writer, [("one", good(1)), ("bad", bad), ("two", good(2))], then=arm)
        assert set(fault.fired) == set(STEPS[step]), f"the failure at {step} was not reached"
        assert isinstance(outcomes["bad"], BaseException)
        kept = {row[0] for row in writer.run(lambda c: c.execute("SELECT n FROM kept").fetchall())}
        for name, n in (("one", 1), ("two", 2)):
            assert (outcomes[name] is None) == (n in kept), (name, outcomes[name], kept)
        assert writer.run(lambda cursor: 42) == 42  # the writer goes on
    finally:
        writer.close()
