"""Reads on PostgreSQL: one statement alone in autocommit (it reads one snapshot by itself);
several in a read-only transaction that commits, since a ROLLBACK would make psycopg drop every
statement prepared on the connection (DEALLOCATE ALL)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from eventsourcing.persistence import PersistenceError

from service.settings import Settings
from service.store.event_store import Store
from service.store.postgres import HorizonRecorder

pytestmark = pytest.mark.postgres


@pytest.fixture
def store(postgres_url: str, tmp_path: Path) -> Iterator[Store]:
    store = Store(env=Settings(database_url=postgres_url, data_dir=tmp_path).store_env())
    assert isinstance(store.recorder, HorizonRecorder)
    yield store
    store.close()


def prepared_on(connection: psycopg.Connection[Any]) -> int:
    """The statements prepared on the connection (the recorder's rows are dicts)."""
    row = connection.execute("SELECT count(*) AS held FROM pg_prepared_statements").fetchone()
    assert row is not None
    return int(row["held"])


def test_a_read_keeps_the_statements_prepared_on_its_connection(store: Store) -> None:
    with store.reading() as cursor:
        cursor.execute("SELECT 1", prepare=True)
        connection = cursor.connection
        assert prepared_on(connection) >= 1
    # Nothing else uses the pool in this test: the connection lies idle in it.
    assert prepared_on(connection) >= 1
    assert connection.read_only is None  # the next user of the connection may write


def test_a_read_cannot_write(store: Store) -> None:
    with pytest.raises(PersistenceError, match="read-only"), store.reading() as cursor:
        cursor.execute("CREATE TABLE written_by_a_read (x INTEGER)")
    store.transact(lambda cursor: cursor.execute("CREATE TABLE written_after (x INTEGER)"))


def test_rows_refuses_anything_but_a_select_before_sending_it(store: Store) -> None:
    with pytest.raises(ValueError, match="SELECT only"):
        store.rows("CREATE TABLE written_by_rows (x INTEGER)")
    with pytest.raises(ValueError, match="SELECT only"):
        store.row("  insert into nowhere values (1)")
    store.transact(lambda cursor: cursor.execute("CREATE TABLE written_by_rows (x INTEGER)"))
    assert store.rows("  select count(*) AS n FROM written_by_rows") == [{"n": 0}]


def test_one_statement_is_sent_without_a_transaction_around_it(store: Store) -> None:
    # The first statement of a transaction starts it: after a BEGIN, the two times differ.
    query = "SELECT statement_timestamp() = transaction_timestamp() AS alone"
    assert store.row(query)["alone"]
    assert store.rows(query) == [{"alone": True}]
    with store.reading() as cursor:
        cursor.execute(query)
        assert cursor.fetchone() == {"alone": False}
