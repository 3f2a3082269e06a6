"""PostgreSQL without the table lock: notification ids from transaction ids, read up to a horizon.

The library's recorder takes `LOCK TABLE ... IN EXCLUSIVE MODE` and sends a NOTIFY inside every
write so that notification ids become visible in the order they were issued; both serialise all
writers. Here a transaction's events take the ids ``xid << 20 | position`` from its own
transaction id, with no lock, and a reader only returns ids below the oldest *writer of the events
table* still in flight (see ``OLDEST_WRITER``), so a reader that moves past an id can never
see a lower one appear later. Not the snapshot's ``xmin``: that waits for every transaction of the
cluster, and one session left open anywhere froze the read side. Readers lag by the oldest writer
in flight (milliseconds: ours are single statements), and other processes are woken by a NOTIFY
sent after the commit, coalesced, from its own connection.
"""

from __future__ import annotations

import contextlib
import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar
from uuid import UUID

import psycopg
from eventsourcing.persistence import (
    IntegrityError,
    Notification,
    OperationalError,
    PersistenceError,
    StoredEvent,
)
from eventsourcing.postgres import (
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresFactory,
)
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier
from psycopg_pool import PoolTimeout
from psycopg_pool.base import AttemptWithBackoff

from service.store.budget import left
from service.store.postgres.horizon import POSITION_BITS, oldest_writer, read_horizon
from service.store.postgres.listener import Notifier
from service.store.postgres.watchdog import StatementTimeout, Watchdog
from service.store.ranges import notification_range, topics_in, version_range
from service.store.readers.holdup import Holdup
from service.store.troubles import UNHEARD, Troubles

T = TypeVar("T")

MAX_BATCH = 1 << POSITION_BITS
MEMOISED_INSERTS = 64  # insert statements kept, by their number of events
RECONNECT_SECONDS = 0.5  # between two attempts to replace a lost pooled connection


class OutcomeUnknown(OperationalError):
    """The connection failed or did not answer in time after a statement was sent: a write may
    or may not have been carried out."""


def spent_or_left(bound: float) -> float:
    """What is left of the request's store budget, at most ``bound`` (service/store/budget.py);
    once it is spent, PoolTimeout: the request gets no connection, so nothing is sent."""
    seconds = left(bound)
    if seconds <= 0:
        raise PoolTimeout("the request's store budget is spent")
    return seconds


class HorizonRecorder(PostgresApplicationRecorder):
    """The library's application recorder with a lock-free insert and horizon-bounded reads."""

    troubles: Troubles = UNHEARD

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str) -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        self.table = SQL("{}.{}").format(
            Identifier(self.datastore.schema), Identifier(self.events_table_name)
        )
        self._table_name = self.table.as_string()
        # Rendered once: composing SQL on every call cost a tenth of a command's CPU.
        self._inserts: dict[int, str] = {}
        self.select_events_sql = self._render(
            "SELECT originator_id, originator_version, topic, state FROM {table}"
            " WHERE originator_id = %s"
        )
        self.select_notifications_sql = self._render(
            "SELECT notification_id, originator_id, originator_version, topic, state"
            " FROM {table} WHERE notification_id < %s"
        )
        self.watchdog = Watchdog(float(datastore.pool.timeout))
        self.notifier = Notifier(self.connection, self.channel_name)

    @contextlib.contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection whose wait and statements end within the request's store
        budget, psycopg's errors as the library's (which the service maps to answers): the
        library's own wrapper, less its per-call pool and type checks."""
        pool = self.datastore.pool
        try:
            with (
                pool.connection(timeout=spent_or_left(pool.timeout)) as connection,
                self.watchdog.watching(connection, spent_or_left(self.watchdog.seconds)),
            ):
                yield connection
        except PoolTimeout as error:  # no connection: nothing was sent
            self.troubles.store_error("no_connection")
            raise OperationalError(str(error)) from error
        except (StatementTimeout, psycopg.OperationalError, psycopg.InterfaceError) as error:
            self.troubles.store_error("outcome_unknown")
            raise OutcomeUnknown(str(error)) from error  # sent, maybe carried out
        except psycopg.IntegrityError as error:
            raise IntegrityError(str(error)) from error  # a version taken: the caller retries
        except psycopg.Error as error:
            self.troubles.store_error("database_error")
            raise PersistenceError(str(error)) from error

    @contextlib.contextmanager
    def reading(self) -> Iterator[Any]:
        """A cursor in a read-only transaction that commits at its end, for statements that
        must read one snapshot (one statement alone: ``rows``). Not rolled back: psycopg
        answers a ROLLBACK by dropping every statement prepared on the connection (DEALLOCATE
        ALL), and the recorder's reads on it would prepare theirs again (half the commands
        paid that round trip, and the planning, through the read models' reads)."""
        with self.connection() as connection:
            connection.read_only = True
            try:
                with connection.transaction():
                    yield connection.cursor()
            finally:
                with contextlib.suppress(psycopg.Error):  # a broken one leaves the pool anyway
                    connection.read_only = None

    def rows(self, statement: str, parameters: Sequence[Any] = ()) -> list[Any]:
        """The rows of one statement, sent alone in autocommit: one statement reads one
        snapshot, and ``reading``'s BEGIN and COMMIT were two of its three round trips."""
        with self.connection() as connection, connection.cursor() as cursor:
            cursor.execute(statement, parameters)
            return cursor.fetchall()

    def _render(self, text: str) -> str:
        return SQL(text).format(table=self.table, bits=POSITION_BITS).as_string()

    def insert_sql(self, count: int) -> str:
        """The insert of ``count`` events: plain VALUES (scalar parameters cost a fraction of
        arrays to send), each event's id its transaction's id and its place in the batch."""
        statement = self._inserts.get(count)
        if statement is None:
            rows = ", ".join(
                f"(%s, %s, %s, %s, (pg_current_xact_id()::text::bigint << {POSITION_BITS}) | {k})"
                for k in range(1, count + 1)
            )
            statement = self._render(
                "INSERT INTO {table}"
                " (originator_id, originator_version, topic, state, notification_id)"
                f" VALUES {rows} RETURNING notification_id"
            )
            if count <= MEMOISED_INSERTS:
                self._inserts[count] = statement
        return statement

    @staticmethod
    def insert_parameters(stored_events: Sequence[StoredEvent]) -> list[Any]:
        return [
            value
            for e in stored_events
            for value in (e.originator_id, e.originator_version, e.topic, e.state)
        ]

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        """One statement in autocommit: one round trip, no lock, no NOTIFY inside it. Not
        retried: a commit whose answer was lost must not be written twice."""
        if not stored_events:
            return []
        if len(stored_events) >= MAX_BATCH:
            raise ValueError(f"at most {MAX_BATCH - 1} events go in one transaction")
        with self.connection() as connection, connection.cursor(row_factory=tuple_row) as cursor:
            statement = self.insert_sql(len(stored_events))
            cursor.execute(statement, self.insert_parameters(stored_events), prepare=True)
            ids = [row[0] for row in cursor.fetchall()]
        self.notifier.poke()
        return ids

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        """An aggregate's events (not retried: the service answers 503 and the client may)."""
        tail, params = version_range("%s", gt=gt, lte=lte, desc=desc, limit=limit)
        statement = self.select_events_sql + tail
        params.insert(0, originator_id)
        with self.connection() as connection, connection.cursor(row_factory=tuple_row) as cursor:
            cursor.execute(statement, params, prepare=True)
            return [
                StoredEvent(
                    originator_id=originator_id,
                    originator_version=originator_version,
                    topic=topic,
                    state=bytes(state),
                )
                for originator_id, originator_version, topic, state in cursor.fetchall()
            ]

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        """Notifications after ``start`` in id order, none at or past the horizon (read first,
        in a statement of its own: the select's snapshot must come after it)."""
        conditions, order, params = notification_range(
            "%s",
            "notification_id",
            start=start,
            stop=stop,
            inclusive_of_start=inclusive_of_start,
            topics=tuple(topics),
            limit=limit,
        )
        statement = self.select_notifications_sql + "".join(f" AND {c}" for c in conditions)
        statement += order
        with self.connection() as connection, connection.cursor(row_factory=tuple_row) as cursor:
            params.insert(0, read_horizon(cursor, self._table_name))
            cursor.execute(statement, params, prepare=True)
            return [
                Notification(
                    id=notification_id,
                    originator_id=originator_id,
                    originator_version=originator_version,
                    topic=topic,
                    state=bytes(state),
                )
                for notification_id, originator_id, originator_version, topic, state in (
                    cursor.fetchall()
                )
            ]

    def max_notification_id(self) -> int | None:
        """The highest notification id (not retried, like every read here)."""
        with self.connection() as connection, connection.cursor() as cursor:
            cursor.execute(SQL("SELECT MAX(notification_id) AS top FROM {}").format(self.table))
            row = cursor.fetchone()
            return None if row is None else row["top"]

    def count_notifications(self, after: int, topics: Sequence[str], most: int) -> int:
        """How many notifications of these topics are committed past ``after``, readable yet
        or not (the horizon does not apply), counting no further than ``most``."""
        statement = self._render(
            "SELECT COUNT(*) AS past FROM (SELECT 1 FROM {table} WHERE notification_id > %s"
        )
        statement += f" AND {topics_in(tuple(topics))} LIMIT %s) AS counted"
        with self.connection() as connection, connection.cursor() as cursor:
            cursor.execute(statement, (after, most))
            row = cursor.fetchone()
            assert row is not None
            return int(row["past"])

    def ping(self) -> None:
        """A round trip to the database, or an error."""
        with self.connection() as connection:
            connection.execute("SELECT 1")

    def horizon(self) -> int:
        """Every notification id below this is final: its transaction has ended."""
        with self.connection() as connection, connection.cursor(row_factory=tuple_row) as cursor:
            return read_horizon(cursor, self._table_name)

    def holdup(self) -> Holdup | None:
        """The oldest writer of the events table still in flight, if any: what the readers of
        the log wait for."""
        with self.connection() as connection, connection.cursor() as cursor:
            oldest = oldest_writer(cursor, self._table_name)
        return oldest if oldest.pid is not None else None

    def transact(self, work: Callable[[Any], T]) -> T:
        """Run ``work(cursor)`` in a transaction of its own and commit it."""
        with self.connection() as connection, connection.transaction():
            return work(connection.cursor())

    def transact_at_once(self, work: Callable[[Any], T]) -> T:
        """Run ``work(cursor)``, which reads nothing back, as one transaction in one round trip.
        Its statements are bound here (psycopg's client-side binding and quoting) and sent as
        one query, which the server runs as one implicit transaction: a statement that fails
        rolls back every one. A projector step's six statements cost ~0.78M instructions sent
        one by one in a transaction, ~0.70M in a pipeline, ~0.62M so. (A literal loses the
        sign of a float's -0.0.)"""
        gathered = Gathered()
        result = work(gathered)
        if gathered.statements:
            with self.connection() as connection:
                binder = psycopg.ClientCursor(connection)
                query = ";".join(
                    binder.mogrify(statement, parameters)
                    for statement, parameters in gathered.statements
                )
                connection.execute(query, prepare=False)  # no parameters: one simple query
        return result

    def close(self) -> None:
        self.notifier.stop()
        self.watchdog.stop()


class Gathered:
    """A cursor that only gathers the statements executed on it (``transact_at_once``)."""

    def __init__(self) -> None:
        self.statements: list[tuple[str, Sequence[Any]]] = []

    def execute(self, statement: str, parameters: Sequence[Any] = ()) -> None:
        self.statements.append((statement, parameters))

    def executemany(self, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        self.statements += [(statement, row) for row in rows]


@contextlib.contextmanager
def schema_lock(datastore: PostgresDatastore, name: str) -> Iterator[None]:
    """Serialise schema creation across processes: `CREATE TABLE IF NOT EXISTS` races on a
    fresh database (duplicate key in pg_type) when two processes start at once."""
    key = zlib.crc32(f"cardledger-schema:{datastore.schema}:{name}".encode())
    with datastore.get_connection() as connection:
        connection.execute("SELECT pg_advisory_lock(%s)", (key,))
        try:
            yield
        finally:
            with contextlib.suppress(psycopg.Error):
                connection.execute("SELECT pg_advisory_unlock(%s)", (key,))


class LedgerPostgresFactory(PostgresFactory):
    """The library's PostgreSQL factory, making our recorder and its tables under a lock."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        # psycopg_pool retries a lost connection after 1 s, doubling each time (and has no
        # setting for it): after a 40 s outage its next attempt came ~17 s after the database
        # was back. Attempts every half second bound that wait whatever the outage's length.
        AttemptWithBackoff.INITIAL_DELAY = RECONNECT_SECONDS
        AttemptWithBackoff.DELAY_BACKOFF = 1.0
        # A request waits for a pooled connection at most POSTGRES_CONNECT_TIMEOUT seconds;
        # these bound the rest: a connection attempt, a statement, and (tcp_user_timeout, the
        # keepalives) a network that drops packets, which would otherwise hold for minutes.
        seconds = max(2, int(self.datastore.pool.timeout))
        milliseconds = seconds * 1000
        options = f"-c statement_timeout={milliseconds} -c lock_timeout={milliseconds}"
        kwargs = self.datastore.pool.kwargs
        assert isinstance(kwargs, dict)  # the library passes a dict
        kwargs.update(
            connect_timeout=seconds,
            tcp_user_timeout=milliseconds,
            keepalives=1,
            keepalives_idle=seconds,
            keepalives_interval=1,
            keepalives_count=2,
            options=options,
            target_session_attrs=env.get("POSTGRES_TARGET_SESSION_ATTRS") or "any",
        )

    def application_recorder(self) -> HorizonRecorder:
        recorder = HorizonRecorder(
            datastore=self.datastore, events_table_name=f"{self.env.name.lower()}_events"
        )
        if self.env_create_table():
            with schema_lock(self.datastore, recorder.events_table_name):
                recorder.create_table()
        return recorder
