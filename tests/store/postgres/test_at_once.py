"""Statements gathered and sent as one query (``Store.transact_at_once``): one transaction,
bound client-side with psycopg's quoting."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import IntegrityError

from service.settings import Settings
from service.store.event_store import Store
from service.store.postgres import HorizonRecorder

pytestmark = pytest.mark.postgres

AWKWARD = ["%s %% %(x)s ' '' \\ \\' ; -- /* é 🂡", "", "a\nb;\nDROP TABLE at_once"]


@pytest.fixture
def store(postgres_url: str, tmp_path: Path) -> Iterator[Store]:
    store = Store(env=Settings(database_url=postgres_url, data_dir=tmp_path).store_env())
    assert isinstance(store.recorder, HorizonRecorder)
    store.transact(
        lambda cursor: cursor.execute(
            f"CREATE TABLE {table(store)}"
            " (k BIGINT PRIMARY KEY, s TEXT, f DOUBLE PRECISION, b BOOLEAN)"
        )
    )
    yield store
    store.close()


def table(store: Store) -> str:
    """The test's table, in the test's own schema."""
    return f'"{store.recorder.datastore.schema}".at_once'  # type: ignore[attr-defined]


def rows(store: Store) -> list[tuple[Any, ...]]:
    with store.reading() as cursor:
        cursor.execute(f"SELECT k, s, f, b FROM {table(store)} ORDER BY k")
        return [(row["k"], row["s"], row["f"], row["b"]) for row in cursor.fetchall()]


def test_the_values_arrive_as_they_were_sent(store: Store) -> None:
    sent = [
        (k, text, number, flag)
        for k, (text, number, flag) in enumerate(
            (text, number, flag)
            for text in AWKWARD
            for number in (0.1 + 0.2, 25 / 3, 1e-310, None)
            for flag in (True, False, None)
        )
    ]

    def write(cursor: Any) -> None:
        insert = f"INSERT INTO {table(store)} VALUES (%s, %s, %s, %s)"
        cursor.execute(insert, sent[0])
        cursor.executemany(insert, sent[1:])

    store.transact_at_once(write)
    assert rows(store) == sent


def test_a_statement_that_fails_takes_the_others_with_it(store: Store) -> None:
    def write(cursor: Any) -> None:
        insert = f"INSERT INTO {table(store)} (k) VALUES (%s)"
        for k in (1, 2, 1, 3):  # the second 1 is taken
            cursor.execute(insert, (k,))

    with pytest.raises(IntegrityError):
        store.transact_at_once(write)
    assert rows(store) == []


def test_the_work_answers_what_it_returns(store: Store) -> None:
    assert store.transact_at_once(lambda cursor: "nothing to send") == "nothing to send"
