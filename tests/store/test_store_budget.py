"""One store budget per request (service/store/budget.py): waiting for a connection and then
for a statement end by one deadline, not by one each; a spent budget sends nothing."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from eventsourcing.persistence import OperationalError

from service.settings import Settings
from service.store.budget import budget, left
from service.store.event_store import Store
from service.store.postgres import HorizonRecorder, OutcomeUnknown
from tests.support.threads import BOUND, finished

TIMEOUT = 4.0  # the store timeout: each wait's own bound
HELD = 3.0  # how long another thread holds every connection


def two_connections(postgres_url: str, tmp_path: Path) -> Store:
    """A store whose pool has two connections (making its table takes both: one holds the
    schema lock)."""
    settings = Settings(database_url=postgres_url, data_dir=tmp_path, store_timeout=int(TIMEOUT))
    env = {**settings.store_env(), "POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "1"}
    return Store(env=env)


def test_outside_a_budget_each_wait_keeps_its_own_bound() -> None:
    assert left(TIMEOUT) == TIMEOUT
    with budget(1.0):
        assert 0 < left(TIMEOUT) <= 1.0
    assert left(TIMEOUT) == TIMEOUT


def test_a_wait_for_a_connection_and_a_statement_end_by_one_deadline(
    postgres_url: str, tmp_path: Path
) -> None:
    store = two_connections(postgres_url, tmp_path)
    recorder = store.writer
    assert isinstance(recorder, HorizonRecorder)
    held = threading.Event()

    def hold() -> None:
        with recorder.connection(), recorder.connection():
            held.set()
            time.sleep(HELD)

    holder = threading.Thread(target=hold, daemon=True, name="holder")
    try:
        holder.start()
        assert held.wait(BOUND)
        began = time.monotonic()
        # The connection comes free after HELD seconds; then its statement answers nothing.
        with (
            pytest.raises(OutcomeUnknown),
            budget(TIMEOUT),
            recorder.connection() as connection,
        ):
            connection.execute("SELECT pg_sleep(60)")
        took = time.monotonic() - began
        # The connection came after ~3 s and the statement was cut at the budget's end (~4 s);
        # with a bound per wait it would have run its own 4 s more (~7 s).
        assert HELD - 0.5 < took < TIMEOUT + 1.5, took
    finally:
        finished([holder])
        store.close()


def test_a_spent_budget_sends_nothing(postgres_url: str, tmp_path: Path) -> None:
    store = two_connections(postgres_url, tmp_path)
    recorder = store.writer
    try:
        with pytest.raises(OperationalError) as raised, budget(0.0), recorder.connection():
            raise AssertionError("a connection was handed out with no budget left")
        assert not isinstance(raised.value, OutcomeUnknown)  # so: nothing was sent
    finally:
        store.close()
