"""Materialized read models: the lobby, per-game scoreboards and the leaderboard.

They live in the store's own database, fed from the notification log. Each batch's rows and the
log position they reflect commit in one transaction, and the position moves by compare-and-set,
so however many runners follow the log, every event counts exactly once. `rebuild` starts over
from position 0 and must arrive at the same rows.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import msgspec

from domain.aggregate import GameAggregate
from domain.events import GameFinished, topic
from projections.lobby import LeaderboardRow, LobbyEntry, Result, lobby_entry, results
from projections.scoreboard import Scoreboard, scoreboard
from service.store.events import GAME_EVENT_TYPES, Store

log = logging.getLogger("cardledger.read_models")
BATCH = 500
FINISHED = topic(GameFinished)
MAIN = "main"


class _Stale(Exception):
    """Another runner moved the position first; read it again."""


class ReadModels:
    def __init__(self, store: Store, load: Callable[[UUID], GameAggregate]) -> None:
        self.store = store
        self.load = load
        datastore: Any = store.recorder.datastore  # type: ignore[attr-defined]
        self._datastore = datastore
        postgres = hasattr(datastore, "schema")
        prefix = f'"{datastore.schema}".' if postgres else ""
        self._names = {
            "p": "%s" if postgres else "?",
            "positions": prefix + "readmodel_positions",
            "games": prefix + "readmodel_games",
            "leaderboard": prefix + "readmodel_leaderboard",
        }
        self._lock = threading.Lock()
        self._create_tables()

    def _sql(self, text: str) -> str:
        return text.format(**self._names)

    @contextmanager
    def _transaction(self, *, commit: bool) -> Iterator[Any]:
        with self._datastore.transaction(commit=commit) as cursor:
            yield cursor

    def _create_tables(self) -> None:
        statements = [
            """CREATE TABLE IF NOT EXISTS {positions} (
                name TEXT PRIMARY KEY, position BIGINT NOT NULL)""",
            """CREATE TABLE IF NOT EXISTS {games} (
                game_id TEXT PRIMARY KEY, variant TEXT NOT NULL, status TEXT NOT NULL,
                created_at TEXT NOT NULL, entry TEXT NOT NULL, scoreboard TEXT NOT NULL)""",
            """CREATE TABLE IF NOT EXISTS {leaderboard} (
                variant TEXT NOT NULL, player_id TEXT NOT NULL, name TEXT NOT NULL,
                games BIGINT NOT NULL, wins BIGINT NOT NULL, points BIGINT NOT NULL,
                PRIMARY KEY (variant, player_id))""",
            """INSERT INTO {positions} (name, position) VALUES ({p}, 0)
                ON CONFLICT (name) DO NOTHING""",
        ]
        with self._transaction(commit=True) as cursor:
            for statement in statements:
                cursor.execute(self._sql(statement), (MAIN,) if "{p}" in statement else ())

    # --- following the log -----------------------------------------------------------------------

    def position(self) -> int:
        with self._transaction(commit=False) as cursor:
            cursor.execute(self._sql("SELECT position FROM {positions} WHERE name = {p}"), (MAIN,))
            return int(cursor.fetchone()["position"])

    def catch_up(self) -> int:
        """Apply every notification not yet reflected; returns how many were applied."""
        applied = 0
        with self._lock:
            while True:
                try:
                    count = self._step()
                except _Stale:
                    continue
                applied += count
                if count < BATCH:
                    return applied

    def _step(self) -> int:
        position = self.position()
        batch = self.store.recorder.select_notifications(
            position, BATCH, topics=tuple(GAME_EVENT_TYPES), inclusive_of_start=False
        )
        if not batch:
            return 0
        touched = list(dict.fromkeys(UUID(str(n.originator_id)) for n in batch))
        finished = {UUID(str(n.originator_id)) for n in batch if n.topic == FINISHED}
        aggregates = {game_id: self.load(game_id) for game_id in touched}
        with self._transaction(commit=True) as cursor:
            cursor.execute(
                self._sql(
                    "UPDATE {positions} SET position = {p} WHERE name = {p} AND position = {p}"
                    " RETURNING position"
                ),
                (batch[-1].id, MAIN, position),
            )
            if cursor.fetchone() is None:
                raise _Stale
            for aggregate in aggregates.values():
                self._write_game(cursor, aggregate)
            for game_id in finished:
                for result in results(aggregates[game_id].state):
                    self._count(cursor, result)
        return len(batch)

    def _write_game(self, cursor: Any, aggregate: GameAggregate) -> None:
        entry = lobby_entry(
            aggregate.state,
            version=aggregate.version,
            created_at=aggregate.created_on,
            updated_at=aggregate.modified_on,
        )
        cursor.execute(
            self._sql(
                """INSERT INTO {games} (game_id, variant, status, created_at, entry, scoreboard)
                VALUES ({p}, {p}, {p}, {p}, {p}, {p})
                ON CONFLICT (game_id) DO UPDATE SET status = excluded.status,
                    entry = excluded.entry, scoreboard = excluded.scoreboard"""
            ),
            (
                entry.game_id,
                entry.variant,
                entry.status,
                entry.created_at.isoformat(),
                msgspec.json.encode(entry).decode(),
                msgspec.json.encode(scoreboard(aggregate.state)).decode(),
            ),
        )

    def _count(self, cursor: Any, result: Result) -> None:
        cursor.execute(
            self._sql(
                """INSERT INTO {leaderboard} (variant, player_id, name, games, wins, points)
                VALUES ({p}, {p}, {p}, 1, {p}, {p})
                ON CONFLICT (variant, player_id) DO UPDATE SET name = excluded.name,
                    games = {leaderboard}.games + 1,
                    wins = {leaderboard}.wins + excluded.wins,
                    points = {leaderboard}.points + excluded.points"""
            ),
            (result.variant, result.player_id, result.name, int(result.won), result.points),
        )

    def rebuild(self) -> int:
        """Forget every row and the position, then follow the log again from the start."""
        self.reset()
        return self.catch_up()

    def reset(self) -> None:
        """Forget every row and the position, in one transaction."""
        with self._lock, self._transaction(commit=True) as cursor:
            cursor.execute(self._sql("DELETE FROM {games}"))
            cursor.execute(self._sql("DELETE FROM {leaderboard}"))
            cursor.execute(
                self._sql("UPDATE {positions} SET position = 0 WHERE name = {p}"), (MAIN,)
            )

    # --- queries ---------------------------------------------------------------------------------

    def lobby(self, *, status: str | None, variant: str | None, limit: int) -> list[LobbyEntry]:
        clauses, params = [], []
        for column, value in (("status", status), ("variant", variant)):
            if value is not None:
                clauses.append(f"{column} = {{p}}")
                params.append(value)
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        query = f"SELECT entry FROM {{games}}{where} ORDER BY created_at DESC LIMIT {int(limit)}"
        with self._transaction(commit=False) as cursor:
            cursor.execute(self._sql(query), tuple(params))
            rows = cursor.fetchall()
        return [msgspec.json.decode(row["entry"], type=LobbyEntry) for row in rows]

    def game_ids(self, *, status: str) -> list[UUID]:
        with self._transaction(commit=False) as cursor:
            cursor.execute(self._sql("SELECT game_id FROM {games} WHERE status = {p}"), (status,))
            return [UUID(row["game_id"]) for row in cursor.fetchall()]

    def scoreboard(self, game_id: UUID) -> Scoreboard | None:
        with self._transaction(commit=False) as cursor:
            cursor.execute(
                self._sql("SELECT scoreboard FROM {games} WHERE game_id = {p}"), (str(game_id),)
            )
            row = cursor.fetchone()
        return None if row is None else msgspec.json.decode(row["scoreboard"], type=Scoreboard)

    def leaderboard(self, variant: str, *, lower_wins: bool) -> list[LeaderboardRow]:
        points_order = "ASC" if lower_wins else "DESC"
        query = (
            "SELECT player_id, name, games, wins, points FROM {leaderboard} WHERE variant = {p}"
            f" ORDER BY wins DESC, points {points_order}, games ASC, player_id ASC"
        )
        with self._transaction(commit=False) as cursor:
            cursor.execute(self._sql(query), (variant,))
            rows: Sequence[Any] = cursor.fetchall()
        ranked: list[LeaderboardRow] = []
        for index, row in enumerate(rows):
            previous = ranked[-1] if ranked else None
            tied = previous is not None and (previous.wins, previous.points) == (
                row["wins"],
                row["points"],
            )
            ranked.append(
                LeaderboardRow(
                    rank=previous.rank if tied and previous else index + 1,
                    player_id=row["player_id"],
                    name=row["name"],
                    games=int(row["games"]),
                    wins=int(row["wins"]),
                    points=int(row["points"]),
                )
            )
        return ranked


class ReadModelRunner:
    """Keeps the read models caught up in the background of a process."""

    def __init__(self, read_models: ReadModels, *, interval: float = 0.2) -> None:
        self.read_models = read_models
        self.interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self.run, name="read-models", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def run(self) -> None:
        while not self._stop.is_set():
            try:
                self.read_models.catch_up()
            except Exception:
                log.exception("read model update failed; retrying")
            self._stop.wait(self.interval)
