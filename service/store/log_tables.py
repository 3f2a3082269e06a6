"""The witnessed log's tables and their SQL, for SQLite and PostgreSQL alike.

Kept apart from the read models: they are not derived data that may be dropped and rebuilt (a
rebuilt log would be another log, and every checkpoint signed so far would stand against it).
One row holds how far the log has been sequenced: the notification log position read so far and
the tree's size. A batch writes its entries, the complete-subtree hashes they make, maybe a
signed checkpoint, and moves that row by compare-and-set, all in one transaction: a crash leaves
the batch wholly written or not at all, and a second sequencer that read the same state fails
its compare-and-set rather than append twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import msgspec

from service.store.event_store import Store
from service.store.statements import Statements

LOG = "log"
# psycopg keeps a statement's placeholders converted only up to 50 parameters: past them it
# converts them on every call, and one INSERT of 50 rows cost more than 50 INSERTs of one.
ROWS_AN_INSERT = 16


class Sequenced(NamedTuple):
    """How far the log has been sequenced."""

    position: int  # the notification log position read so far
    size: int  # entries in the tree


class StoredCheckpoint(NamedTuple):
    size: int
    note: str  # the signed note, as served
    signed_at: str  # ISO 8601, UTC


class LogEntry(msgspec.Struct, frozen=True):
    index: int
    entry: bytes


class LogTables:
    def __init__(self, store: Store) -> None:
        datastore: Any = store.recorder.datastore  # type: ignore[attr-defined]
        self._store = store
        prefix = f'"{datastore.schema}".' if store.postgres else ""
        self._sql = Statements(
            {
                "p": "%s" if store.postgres else "?",
                "blob": "BYTEA" if store.postgres else "BLOB",
                **{table: f"{prefix}tlog_{table}" for table in ("state", "entries", "nodes")},
                "checkpoints": f"{prefix}tlog_checkpoints",
                "cosignatures": f"{prefix}tlog_cosignatures",
            }
        )
        self._inserts: dict[tuple[str, int], str] = {}  # by table and number of rows
        with store.schema_lock("tlog"):
            store.transact(self._create)

    def _create(self, cursor: Any) -> None:
        for table in (
            "{state} (name TEXT PRIMARY KEY, position BIGINT NOT NULL, size BIGINT NOT NULL)",
            "{entries} (idx BIGINT PRIMARY KEY, game_id TEXT NOT NULL, entry {blob} NOT NULL)",
            "{nodes} (level INTEGER NOT NULL, idx BIGINT NOT NULL, hash {blob} NOT NULL,"
            " PRIMARY KEY (level, idx))",
            "{checkpoints} (size BIGINT PRIMARY KEY, note TEXT NOT NULL, signed_at TEXT NOT NULL)",
            "{cosignatures} (size BIGINT NOT NULL, witness TEXT NOT NULL, line TEXT NOT NULL,"
            " PRIMARY KEY (size, witness))",
        ):
            cursor.execute(self._sql(f"CREATE TABLE IF NOT EXISTS {table}"))
        cursor.execute(
            self._sql("CREATE INDEX IF NOT EXISTS tlog_entries_game ON {entries} (game_id)")
        )
        cursor.execute(
            self._sql(
                "INSERT INTO {state} (name, position, size) VALUES ({p}, 0, 0)"
                " ON CONFLICT (name) DO NOTHING"
            ),
            (LOG,),
        )

    # --- writes (inside Store.transact) ----------------------------------------------------------

    def move(self, cursor: Any, before: Sequenced, after: Sequenced) -> bool:
        """Compare-and-set how far the log is sequenced: False if another sequencer moved it."""
        cursor.execute(
            self._sql(
                "UPDATE {state} SET position = {p}, size = {p}"
                " WHERE name = {p} AND position = {p} AND size = {p} RETURNING size"
            ),
            (after.position, after.size, LOG, before.position, before.size),
        )
        return cursor.fetchone() is not None

    def append(
        self,
        cursor: Any,
        entries: Sequence[tuple[int, str, bytes]],
        nodes: Sequence[tuple[int, int, bytes]],
    ) -> None:
        """Entries as (index, game id, bytes); nodes as (level, index, hash)."""
        self._insert(cursor, "{entries} (idx, game_id, entry)", entries)
        self._insert(cursor, "{nodes} (level, idx, hash)", nodes)

    def _insert(self, cursor: Any, into: str, rows: Sequence[tuple[Any, Any, Any]]) -> None:
        """Rows of three columns, up to ROWS_AN_INSERT an INSERT: one INSERT a row (executemany)
        cost PostgreSQL's writer ~0.1M instructions a row."""
        for first in range(0, len(rows), ROWS_AN_INSERT):
            chunk = rows[first : first + ROWS_AN_INSERT]
            statement = self._inserts.get((into, len(chunk)))
            if statement is None:
                marks = ", ".join(["({p}, {p}, {p})"] * len(chunk))
                statement = self._inserts[into, len(chunk)] = self._sql(
                    f"INSERT INTO {into} VALUES {marks}"
                )
            cursor.execute(statement, [value for row in chunk for value in row])

    def keep_checkpoint(self, cursor: Any, checkpoint: StoredCheckpoint) -> None:
        """Keep a signed checkpoint; one already kept at its size stays (the tree of a size is
        one tree, so two sequencers signing it at once signed the same root)."""
        cursor.execute(
            self._sql(
                "INSERT INTO {checkpoints} (size, note, signed_at) VALUES ({p}, {p}, {p})"
                " ON CONFLICT (size) DO NOTHING"
            ),
            checkpoint,
        )

    def keep_cosignature(self, size: int, witness: str, line: str) -> None:
        """Keep a witness's cosignature line of the checkpoint of ``size`` (its own transaction:
        it arrives from the witness, not with a batch)."""

        def write(cursor: Any) -> None:
            cursor.execute(
                self._sql(
                    "INSERT INTO {cosignatures} (size, witness, line) VALUES ({p}, {p}, {p})"
                    " ON CONFLICT (size, witness) DO NOTHING"
                ),
                (size, witness, line),
            )

        self._store.transact(write)

    # --- reads -----------------------------------------------------------------------------------

    def sequenced(self) -> Sequenced:
        row = self._store.row(
            self._sql("SELECT position, size FROM {state} WHERE name = {p}"), (LOG,)
        )
        return Sequenced(int(row["position"]), int(row["size"]))

    def latest_checkpoint(self) -> StoredCheckpoint | None:
        return self._checkpoint("ORDER BY size DESC LIMIT 1", ())

    def checkpoint(self, size: int) -> StoredCheckpoint | None:
        """The checkpoint signed at this size, if one was."""
        return self._checkpoint("WHERE size = {p}", (size,))

    def _checkpoint(self, clause: str, params: tuple[int, ...]) -> StoredCheckpoint | None:
        row = self._store.row(
            self._sql(f"SELECT size, note, signed_at FROM {{checkpoints}} {clause}"), params
        )
        return (
            None
            if row is None
            else StoredCheckpoint(int(row["size"]), row["note"], row["signed_at"])
        )

    def nodes(self, level: int, first: int, count: int) -> list[bytes]:
        """The hashes at ``level``, indexes ``first`` to ``first + count - 1`` (fewer if the tree
        does not hold them all yet)."""
        rows = self._store.rows(
            self._sql(
                "SELECT hash FROM {nodes} WHERE level = {p} AND idx >= {p} AND idx < {p}"
                " ORDER BY idx"
            ),
            (level, first, first + count),
        )
        return [bytes(row["hash"]) for row in rows]

    def entries(self, first: int, count: int) -> list[bytes]:
        rows = self._store.rows(
            self._sql("SELECT entry FROM {entries} WHERE idx >= {p} AND idx < {p} ORDER BY idx"),
            (first, first + count),
        )
        return [bytes(row["entry"]) for row in rows]

    def entries_of(self, game_id: str) -> list[LogEntry]:
        rows = self._store.rows(
            self._sql("SELECT idx, entry FROM {entries} WHERE game_id = {p} ORDER BY idx"),
            (game_id,),
        )
        return [LogEntry(int(row["idx"]), bytes(row["entry"])) for row in rows]

    def cosignatures(self, size: int) -> list[str]:
        """The cosignature lines kept for the checkpoint of ``size``, by witness name."""
        rows = self._store.rows(
            self._sql("SELECT line FROM {cosignatures} WHERE size = {p} ORDER BY witness"),
            (size,),
        )
        return [row["line"] for row in rows]

    def cosigned_size(self, witness: str) -> int | None:
        """The largest checkpoint ``witness`` has cosigned, as far as the log knows."""
        row = self._store.row(
            self._sql("SELECT MAX(size) AS size FROM {cosignatures} WHERE witness = {p}"),
            (witness,),
        )
        return None if row is None or row["size"] is None else int(row["size"])

    def latest_witnessed(self, witnesses: int) -> StoredCheckpoint | None:
        """The latest checkpoint at least ``witnesses`` witnesses cosigned."""
        return self._checkpoint(
            "WHERE (SELECT COUNT(*) FROM {cosignatures} w WHERE w.size = {checkpoints}.size)"
            " >= {p} ORDER BY size DESC LIMIT 1",
            (witnesses,),
        )
