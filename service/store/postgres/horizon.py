"""The horizon of the log on PostgreSQL: below it every notification id is final. Its SQL
reads the lock table, where the writers of the events table in flight show."""

from typing import Any

import psycopg

from service.store.readers.holdup import Holdup

XID_WRAP = 1 << 32  # pg_locks gives 32-bit transaction ids; ours carry the epoch above them
POSITION_BITS = 20  # a notification id is its transaction's id, shifted, and its place in it

# The writers of the events table still in flight: every INSERT holds the table's
# RowExclusiveLock from the start of its statement, before its transaction has an id, until it
# ends. One statement, so its snapshot is taken before pg_locks is read: every id below the
# snapshot's ``xmax`` had ended or was running then; a writer seen with its id holds the horizon
# at that id; one not seen at all gets an id past ``xmax`` or has ended (committed or rolled
# back) before the read that follows. A writer seen without its id may have one all the same:
# PostgreSQL enters a new id in the list snapshots read before it takes the lock that shows it
# in pg_locks (and a read of pg_locks holding the lock table's partitions widens that gap), so
# such a writer holds the horizon at the snapshot's ``xmin``, the oldest transaction running (a
# CI run lost a row without this: a reader passed over an id below ``xmax`` that its writer,
# caught in that gap, committed later). Ids in pg_locks are 32 bits: each is placed in the
# epoch of ``xmax``, less than 2**31 from it either way (``ahead``).
OLDEST_WRITER = """
WITH snap AS (SELECT pg_current_snapshot() AS taken),
bounds AS (
    SELECT pg_snapshot_xmax(taken)::text::bigint AS xmax,
           pg_snapshot_xmin(taken)::text::bigint AS xmin
    FROM snap
),
writers AS (
    SELECT held.transactionid::text::bigint AS xid, writing.pid
    FROM pg_locks AS writing
    LEFT JOIN pg_locks AS held
      ON held.virtualtransaction = writing.virtualtransaction AND held.locktype = 'transactionid'
    WHERE writing.locktype = 'relation' AND writing.mode = 'RowExclusiveLock'
      AND writing.relation = %(table)s::regclass
      AND writing.database = (SELECT oid FROM pg_database WHERE datname = current_database())
),
placed AS (
    SELECT CASE WHEN writers.xid IS NULL THEN bounds.xmin - bounds.xmax
                ELSE ((writers.xid - bounds.xmax) %% {wrap} + {wrap} + {half}) %% {wrap} - {half}
           END AS ahead,
           writers.pid
    FROM bounds, writers
)
SELECT bounds.xmax, oldest.ahead, oldest.pid
FROM bounds LEFT JOIN LATERAL (SELECT * FROM placed ORDER BY ahead LIMIT 1) AS oldest ON true
""".replace("{wrap}", str(XID_WRAP)).replace("{half}", str(XID_WRAP // 2))
# The same, with what the oldest writer is doing, to say what holds the readers back. Apart: a
# read of pg_stat_activity gathers every backend's state, and cost the horizon, read before each
# read of the log, about as much again.
WRITERS_IN_FLIGHT = f"""
SELECT oldest.xmax, oldest.ahead, oldest.pid,
       EXTRACT(EPOCH FROM clock_timestamp() - activity.xact_start) AS open_seconds,
       activity.state, activity.application_name, activity.query
FROM ({OLDEST_WRITER}) AS oldest LEFT JOIN pg_stat_activity AS activity ON activity.pid = oldest.pid
"""


def read_horizon(cursor: psycopg.Cursor[tuple[Any, ...]], table: str) -> int:
    """The horizon, read on a cursor of tuple rows: each row made a dict cost ~6 µs a statement
    (psycopg's column names read for it), a fifth of a short one's CPU."""
    cursor.execute(OLDEST_WRITER, {"table": table}, prepare=True)
    row = cursor.fetchone()
    assert row is not None  # one row, the writer's columns null when none is in flight
    xmax, ahead, _ = row
    return horizon_of(xmax, ahead)


def oldest_writer(cursor: Any, table: str) -> Holdup:
    """The horizon and the oldest writer in flight, on a cursor of dict rows."""
    cursor.execute(WRITERS_IN_FLIGHT, {"table": table}, prepare=True)
    row = cursor.fetchone()
    assert row is not None  # one row, the writer's columns null when none is in flight
    return Holdup(
        horizon=horizon_of(row["xmax"], row["ahead"]),
        pid=row["pid"],
        open_seconds=None if row["open_seconds"] is None else float(row["open_seconds"]),
        state=row["state"],
        application=row["application_name"],
        query=row["query"],
    )


def horizon_of(xmax: Any, ahead: Any) -> int:
    """Every notification id below this is final: the oldest writer in flight's ids start here
    (the snapshot's ``xmax``'s, when none is)."""
    return (int(xmax) + min(0, int(ahead or 0))) << POSITION_BITS
