"""The read models' tables and their SQL, for SQLite and PostgreSQL alike.

Rows are written inside the store's write transactions (``Store.transact``), so a batch of rows
and the log position they reflect commit together. When the rows change shape the schema
version moves on and the tables are rebuilt from the log.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from projections.lobby import LobbyEntry, Result
from projections.scoreboard import Scoreboard
from service.store.event_store import Store

SCHEMA_VERSION = 3  # 2: each game's running deadline; 3: who sits at which game
MAIN = "main"  # the position of the rows
SCHEMA = "schema"  # the version of the rows' shape


class GameRow(msgspec.Struct, frozen=True, kw_only=True):
    """A game's row, in column order: its lobby entry, scoreboard and running deadline."""

    game_id: str
    variant: str
    status: str
    created_at: str
    deadline: str | None
    entry: str
    scoreboard: str


class Tables:
    def __init__(self, store: Store) -> None:
        self._store = store
        datastore: Any = store.recorder.datastore  # type: ignore[attr-defined]
        self._datastore = datastore
        prefix = f'"{datastore.schema}".' if store.postgres else ""
        self._names = {
            "p": "%s" if store.postgres else "?",
            "positions": prefix + "readmodel_positions",
            "games": prefix + "readmodel_games",
            "leaderboard": prefix + "readmodel_leaderboard",
            "seats": prefix + "readmodel_seats",
        }
        with store.schema_lock("readmodels"):
            store.transact(self._create)

    def _sql(self, text: str) -> str:
        return text.format(**self._names)

    @contextlib.contextmanager
    def _reading(self) -> Iterator[Any]:
        with self._datastore.transaction(commit=False) as cursor:
            yield cursor

    def _create(self, cursor: Any) -> None:
        cursor.execute(
            self._sql(
                "CREATE TABLE IF NOT EXISTS {positions} ("
                "name TEXT PRIMARY KEY, position BIGINT NOT NULL)"
            )
        )
        cursor.execute(self._sql("SELECT position FROM {positions} WHERE name = {p}"), (SCHEMA,))
        found = cursor.fetchone()
        if found is None or int(found["position"]) != SCHEMA_VERSION:
            cursor.execute(self._sql("DROP TABLE IF EXISTS {games}"))
            cursor.execute(self._sql("DROP TABLE IF EXISTS {leaderboard}"))
            cursor.execute(self._sql("DROP TABLE IF EXISTS {seats}"))
        cursor.execute(
            self._sql(
                "CREATE TABLE IF NOT EXISTS {games} ("
                "game_id TEXT PRIMARY KEY, variant TEXT NOT NULL, status TEXT NOT NULL,"
                " created_at TEXT NOT NULL, deadline TEXT, entry TEXT NOT NULL,"
                " scoreboard TEXT NOT NULL)"
            )
        )
        cursor.execute(
            self._sql(
                "CREATE TABLE IF NOT EXISTS {seats} ("
                "player_id TEXT NOT NULL, game_id TEXT NOT NULL, PRIMARY KEY (player_id, game_id))"
            )
        )
        cursor.execute(
            self._sql(
                "CREATE TABLE IF NOT EXISTS {leaderboard} ("
                "variant TEXT NOT NULL, player_id TEXT NOT NULL, name TEXT NOT NULL,"
                " games BIGINT NOT NULL, wins BIGINT NOT NULL, points BIGINT NOT NULL,"
                " PRIMARY KEY (variant, player_id))"
            )
        )
        if found is None or int(found["position"]) != SCHEMA_VERSION:
            for name, value in ((MAIN, 0), (SCHEMA, SCHEMA_VERSION)):
                cursor.execute(
                    self._sql(
                        "INSERT INTO {positions} (name, position) VALUES ({p}, {p})"
                        " ON CONFLICT (name) DO UPDATE SET position = excluded.position"
                    ),
                    (name, value),
                )

    # --- writes (inside Store.transact) ----------------------------------------------------------

    def move(self, cursor: Any, expected: int, position: int) -> bool:
        """Compare-and-set the position: False if another runner moved it first."""
        cursor.execute(
            self._sql(
                "UPDATE {positions} SET position = {p} WHERE name = {p} AND position = {p}"
                " RETURNING position"
            ),
            (position, MAIN, expected),
        )
        return cursor.fetchone() is not None

    def write_games(self, cursor: Any, rows: list[GameRow]) -> None:
        if not rows:
            return
        cursor.executemany(
            self._sql(
                "INSERT INTO {games}"
                " (game_id, variant, status, created_at, deadline, entry, scoreboard)"
                " VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p})"
                " ON CONFLICT (game_id) DO UPDATE SET status = excluded.status,"
                " deadline = excluded.deadline, entry = excluded.entry,"
                " scoreboard = excluded.scoreboard"
            ),
            [msgspec.structs.astuple(row) for row in rows],
        )

    def seat(self, cursor: Any, seats: list[tuple[str, str]]) -> None:
        """(player_id, game_id) pairs: who sits at which game (a seat, once taken, stays)."""
        if seats:
            cursor.executemany(
                self._sql(
                    "INSERT INTO {seats} (player_id, game_id) VALUES ({p}, {p})"
                    " ON CONFLICT (player_id, game_id) DO NOTHING"
                ),
                seats,
            )

    def count(self, cursor: Any, results: list[Result]) -> None:
        """Each result adds a game, maybe a win, and its points to its player's row."""
        if not results:
            return
        cursor.executemany(
            self._sql(
                "INSERT INTO {leaderboard} (variant, player_id, name, games, wins, points)"
                " VALUES ({p}, {p}, {p}, 1, {p}, {p})"
                " ON CONFLICT (variant, player_id) DO UPDATE SET name = excluded.name,"
                " games = {leaderboard}.games + 1,"
                " wins = {leaderboard}.wins + excluded.wins,"
                " points = {leaderboard}.points + excluded.points"
            ),
            [(r.variant, r.player_id, r.name, int(r.won), r.points) for r in results],
        )

    def clear(self, cursor: Any) -> None:
        cursor.execute(self._sql("DELETE FROM {games}"))
        cursor.execute(self._sql("DELETE FROM {leaderboard}"))
        cursor.execute(self._sql("DELETE FROM {seats}"))
        cursor.execute(self._sql("UPDATE {positions} SET position = 0 WHERE name = {p}"), (MAIN,))

    # --- reads -----------------------------------------------------------------------------------

    def position(self) -> int:
        with self._reading() as cursor:
            cursor.execute(self._sql("SELECT position FROM {positions} WHERE name = {p}"), (MAIN,))
            return int(cursor.fetchone()["position"])

    def row_counts(self) -> tuple[int, int]:
        """How many game rows and leaderboard rows there are (what `project --rebuild` made)."""
        query = (
            "SELECT (SELECT COUNT(*) FROM {games}) AS games,"
            " (SELECT COUNT(*) FROM {leaderboard}) AS leaderboard"
        )
        with self._reading() as cursor:
            cursor.execute(self._sql(query))  # one statement: one snapshot
            row = cursor.fetchone()
        return int(row["games"]), int(row["leaderboard"])

    def running_deadlines(self) -> tuple[int, dict[UUID, datetime]]:
        query = (
            "SELECT p.position, g.game_id, g.deadline FROM {positions} p"
            " LEFT JOIN {games} g ON g.deadline IS NOT NULL WHERE p.name = {p}"
        )
        with self._reading() as cursor:
            cursor.execute(self._sql(query), (MAIN,))  # one statement: one snapshot
            rows = cursor.fetchall()
        deadlines = {
            UUID(row["game_id"]): datetime.fromisoformat(row["deadline"])
            for row in rows
            if row["game_id"] is not None
        }
        return int(rows[0]["position"]), deadlines

    def lobby(
        self, *, status: str | None, variant: str | None, limit: int, offset: int = 0
    ) -> list[LobbyEntry]:
        """Newest first (ties by game id, so pages never overlap), ``limit`` from ``offset``."""
        clauses, params = [], []
        for column, value in (("status", status), ("variant", variant)):
            if value is not None:
                clauses.append(f"{column} = {{p}}")
                params.append(value)
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        query = (
            f"SELECT entry FROM {{games}}{where} ORDER BY created_at DESC, game_id DESC"
            f" LIMIT {int(limit)} OFFSET {int(offset)}"
        )
        with self._reading() as cursor:
            cursor.execute(self._sql(query), tuple(params))
            rows = cursor.fetchall()
        return [msgspec.json.decode(row["entry"], type=LobbyEntry) for row in rows]

    def games_of(
        self, player_id: str, *, status: str | None, limit: int, offset: int
    ) -> list[LobbyEntry]:
        """A player's games, newest first (ties by game id), ``limit`` from ``offset``."""
        where, params = "s.player_id = {p}", [player_id]
        if status is not None:
            where += " AND g.status = {p}"
            params.append(status)
        query = (
            "SELECT g.entry FROM {seats} s JOIN {games} g ON g.game_id = s.game_id"
            f" WHERE {where} ORDER BY g.created_at DESC, g.game_id DESC"
            f" LIMIT {int(limit)} OFFSET {int(offset)}"
        )
        with self._reading() as cursor:
            cursor.execute(self._sql(query), tuple(params))
            rows = cursor.fetchall()
        return [msgspec.json.decode(row["entry"], type=LobbyEntry) for row in rows]

    def scoreboard(self, game_id: UUID) -> Scoreboard | None:
        with self._reading() as cursor:
            cursor.execute(
                self._sql("SELECT scoreboard FROM {games} WHERE game_id = {p}"), (str(game_id),)
            )
            row = cursor.fetchone()
        return None if row is None else msgspec.json.decode(row["scoreboard"], type=Scoreboard)

    def leaderboard(
        self, variant: str, *, lower_wins: bool, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """The best ``limit`` rows (all if None), best first."""
        points_order = "ASC" if lower_wins else "DESC"
        query = (
            "SELECT player_id, name, games, wins, points FROM {leaderboard} WHERE variant = {p}"
            f" ORDER BY wins DESC, points {points_order}, games ASC, player_id ASC"
        )
        if limit is not None:
            query += f" LIMIT {int(limit)}"
        with self._reading() as cursor:
            cursor.execute(self._sql(query), (variant,))
            return [dict(row) for row in cursor.fetchall()]
