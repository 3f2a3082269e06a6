"""The horizon of the log on PostgreSQL: below it every notification id is final. Its SQL
reads the lock table, where the writers of the events table in flight show."""

XID_WRAP = 1 << 32  # pg_locks gives 32-bit transaction ids; ours carry the epoch above them

# The writers of the events table still in flight: every INSERT holds the table's
# RowExclusiveLock from the start of its statement, before its transaction has an id, until it
# ends. One statement, so its snapshot is taken before pg_locks is read: every id below the
# snapshot's ``xmax`` had ended or was running then; a writer seen with its id holds the horizon
# at that id; one seen without an id yet, or not seen at all, gets a newer one; one that ended in
# between has committed (or rolled back) before the read that follows. Ids in pg_locks are 32
# bits: each is placed in the epoch of ``xmax``, less than 2**31 from it either way (``ahead``).
OLDEST_WRITER = """
WITH snap AS (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS xmax),
writers AS (
    SELECT held.transactionid::text::bigint AS xid, held.pid
    FROM pg_locks AS writing
    JOIN pg_locks AS held
      ON held.virtualtransaction = writing.virtualtransaction AND held.locktype = 'transactionid'
    WHERE writing.locktype = 'relation' AND writing.mode = 'RowExclusiveLock'
      AND writing.relation = %(table)s::regclass
      AND writing.database = (SELECT oid FROM pg_database WHERE datname = current_database())
),
placed AS (
    SELECT ((writers.xid - snap.xmax) %% {wrap} + {wrap}) %% {wrap} AS ahead, writers.*
    FROM snap, writers
)
SELECT snap.xmax,
       CASE WHEN oldest.ahead >= {half} THEN oldest.ahead - {wrap} ELSE oldest.ahead END AS ahead,
       oldest.pid
FROM snap LEFT JOIN LATERAL (
    SELECT * FROM placed ORDER BY (ahead + {half}) %% {wrap} LIMIT 1
) AS oldest ON true
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
