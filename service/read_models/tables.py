"""The read models' tables and their SQL, for SQLite and PostgreSQL alike.

Rows are written inside the store's write transactions (``Store.transact``), so a batch of rows
and the log position they reflect commit together. When the rows change shape the schema
version moves on and the tables are rebuilt from the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from projections.lobby import LeaderboardRow, LobbyEntry, Result
from projections.ratings import NEW
from projections.scoreboard import Scoreboard
from service.read_models.message_tables import MessageTables
from service.read_models.pages import (
    NEWEST_FIRST,
    RATING_ORDER,
    BoardPlace,
    LobbyPlace,
    Page,
    RatingPlace,
    board_order,
    order_by,
    page_of,
    strictly_after,
)
from service.read_models.rating_tables import RatingTables
from service.read_models.webhook_tables import WebhookTables
from service.store.event_store import Store
from service.store.statements import Statements

SCHEMA_VERSION = 7  # 2: each game's running deadline; 3: who sits at which game; 4: bot seats;
# 5: ratings (rating_tables.py) and the leaderboard's rating columns; 6: players' messages
# (message_tables.py); 7: matched and rematch_offered messages, rematch_of in messages, the
# lobby's rematch links
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
    bots: bool  # a seat of the game is a bot's


class Running(msgspec.Struct, frozen=True, kw_only=True):
    """As of one log position: every game's running deadline, and the games not yet over
    that seat a bot."""

    position: int
    deadlines: dict[UUID, datetime]
    bot_games: set[UUID]


class Tables:
    def __init__(self, store: Store, *, create: bool = True) -> None:
        """The read models' tables in ``store``'s database, made if missing unless ``create``
        is false (a standby's copy: read only)."""
        self._store = store
        datastore: Any = store.recorder.datastore  # type: ignore[attr-defined]
        prefix = f'"{datastore.schema}".' if store.postgres else ""
        self._sql = Statements(
            {
                "p": "%s" if store.postgres else "?",
                "positions": prefix + "readmodel_positions",
                "games": prefix + "readmodel_games",
                "leaderboard": prefix + "readmodel_leaderboard",
                "seats": prefix + "readmodel_seats",
                "webhooks": prefix + "player_webhooks",  # not a read model: never dropped
                **{
                    table: prefix + f"readmodel_{table}"
                    for table in (*RatingTables.TABLES, *MessageTables.TABLES)
                },
            }
        )
        self.ratings = RatingTables(self._sql, store)
        self.messages = MessageTables(self._sql, store)
        self.webhooks = WebhookTables(self._sql, store)
        if create:
            with store.schema_lock("readmodels"):
                store.transact(self._create)

    def _create(self, cursor: Any) -> None:
        cursor.execute(
            self._sql(
                "CREATE TABLE IF NOT EXISTS {positions} ("
                "name TEXT PRIMARY KEY, position BIGINT NOT NULL)"
            )
        )
        cursor.execute(self._sql("SELECT position FROM {positions} WHERE name = {p}"), (SCHEMA,))
        found = cursor.fetchone()
        fresh = found is None or int(found["position"]) != SCHEMA_VERSION
        if fresh:
            cursor.execute(self._sql("DROP TABLE IF EXISTS {games}"))
            cursor.execute(self._sql("DROP TABLE IF EXISTS {leaderboard}"))
            cursor.execute(self._sql("DROP TABLE IF EXISTS {seats}"))
        self.ratings.create(cursor, fresh=fresh)
        self.messages.create(cursor, fresh=fresh)
        self.webhooks.create(cursor)
        cursor.execute(
            self._sql(
                "CREATE TABLE IF NOT EXISTS {games} ("
                "game_id TEXT PRIMARY KEY, variant TEXT NOT NULL, status TEXT NOT NULL,"
                " created_at TEXT NOT NULL, deadline TEXT, entry TEXT NOT NULL,"
                " scoreboard TEXT NOT NULL, bots BOOLEAN NOT NULL)"
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
        if fresh:
            for name, value in ((MAIN, 0), (SCHEMA, SCHEMA_VERSION)):
                cursor.execute(
                    self._sql(
                        "INSERT INTO {positions} (name, position) VALUES ({p}, {p})"
                        " ON CONFLICT (name) DO UPDATE SET position = excluded.position"
                    ),
                    (name, value),
                )

    # --- writes (inside Store.transact) ----------------------------------------------------------

    def move(self, cursor: Any, expected: int, position: int) -> None:
        """Compare-and-set the position. If another runner moved it first, the statement
        fails (it sets the position to NULL, which the column refuses: IntegrityError) and
        the transaction with it, so its answer need not be read before the rest is sent."""
        cursor.execute(
            self._sql(
                "UPDATE {positions} SET position ="
                " CASE WHEN position = {p} THEN CAST({p} AS BIGINT) END WHERE name = {p}"
            ),
            (expected, position, MAIN),
        )

    def write_games(self, cursor: Any, rows: list[GameRow]) -> None:
        cursor.executemany(
            self._sql(
                "INSERT INTO {games}"
                " (game_id, variant, status, created_at, deadline, entry, scoreboard, bots)"
                " VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p}, {p})"
                " ON CONFLICT (game_id) DO UPDATE SET status = excluded.status,"
                " deadline = excluded.deadline, entry = excluded.entry,"
                " scoreboard = excluded.scoreboard, bots = excluded.bots"
            ),
            [msgspec.structs.astuple(row) for row in rows],
        )

    def seat(self, cursor: Any, seats: list[tuple[str, str]]) -> None:
        """(player_id, game_id) pairs: who sits at which game (a seat, once taken, stays)."""
        cursor.executemany(
            self._sql(
                "INSERT INTO {seats} (player_id, game_id) VALUES ({p}, {p})"
                " ON CONFLICT (player_id, game_id) DO NOTHING"
            ),
            seats,
        )

    def count(self, cursor: Any, results: list[Result]) -> None:
        """Each result adds a game, maybe a win, and its points to its player's row."""
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
        self.ratings.clear(cursor)
        self.messages.clear(cursor)
        cursor.execute(self._sql("UPDATE {positions} SET position = 0 WHERE name = {p}"), (MAIN,))

    # --- reads -----------------------------------------------------------------------------------

    def position(self) -> int:
        row = self._store.row(
            self._sql("SELECT position FROM {positions} WHERE name = {p}"), (MAIN,)
        )
        return int(row["position"])

    def row_counts(self) -> tuple[int, int]:
        """How many game rows and leaderboard rows there are (what `project --rebuild` made)."""
        query = (
            "SELECT (SELECT COUNT(*) FROM {games}) AS games,"
            " (SELECT COUNT(*) FROM {leaderboard}) AS leaderboard"
        )
        row = self._store.row(self._sql(query))  # one statement: one snapshot
        return int(row["games"]), int(row["leaderboard"])

    def running(self) -> Running:
        query = (
            "SELECT p.position, g.game_id, g.deadline, g.bots FROM {positions} p"
            " LEFT JOIN {games} g ON g.deadline IS NOT NULL"
            " OR (g.bots AND g.status IN ('waiting', 'active')) WHERE p.name = {p}"
        )
        rows = self._store.rows(self._sql(query), (MAIN,))  # one statement: one snapshot
        listed = [row for row in rows if row["game_id"] is not None]
        return Running(
            position=int(rows[0]["position"]),
            deadlines={
                UUID(row["game_id"]): datetime.fromisoformat(row["deadline"])
                for row in listed
                if row["deadline"] is not None
            },
            bot_games={UUID(row["game_id"]) for row in listed if row["bots"]},
        )

    def lobby(
        self, *, status: str | None, variant: str | None, limit: int, after: LobbyPlace | None
    ) -> Page[LobbyEntry, LobbyPlace]:
        """``limit`` games newest first, from the one after ``after`` (the newest if None)."""
        clauses, params = [], []
        for column, value in (("status", status), ("variant", variant)):
            if value is not None:
                clauses.append(f"{column} = {{p}}")
                params.append(value)
        return self._games_page(clauses, params, limit, after)

    def games_of(
        self, player_id: str, *, status: str | None, limit: int, after: LobbyPlace | None
    ) -> Page[LobbyEntry, LobbyPlace]:
        """A player's games as the lobby orders them, ``limit`` from the one after ``after``."""
        clauses = ["game_id IN (SELECT game_id FROM {seats} WHERE player_id = {p})"]
        params = [player_id]
        if status is not None:
            clauses.append("status = {p}")
            params.append(status)
        return self._games_page(clauses, params, limit, after)

    def _games_page(
        self,
        clauses: Sequence[str],
        params: Sequence[object],
        limit: int,
        after: LobbyPlace | None,
    ) -> Page[LobbyEntry, LobbyPlace]:
        if after is not None:
            condition, values = strictly_after(NEWEST_FIRST, after)
            clauses, params = [*clauses, condition], [*params, *values]
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        query = (  # one row more than the page: whether a next page exists
            f"SELECT created_at, game_id, entry FROM {{games}}{where}"
            f" ORDER BY {order_by(NEWEST_FIRST)} LIMIT {int(limit) + 1}"
        )
        rows = self._store.rows(self._sql(query), tuple(params))
        placed = [
            (
                LobbyPlace(created_at=row["created_at"], game_id=row["game_id"]),
                msgspec.json.decode(row["entry"], type=LobbyEntry),
            )
            for row in rows
        ]
        return page_of(placed, limit)

    def scoreboard(self, game_id: UUID) -> Scoreboard | None:
        row = self._store.row(
            self._sql("SELECT scoreboard FROM {games} WHERE game_id = {p}"), (str(game_id),)
        )
        return None if row is None else msgspec.json.decode(row["scoreboard"], type=Scoreboard)

    def leaderboard(
        self,
        variant: str,
        *,
        lower_wins: bool,
        by_rating: bool = False,
        limit: int,
        after: BoardPlace | RatingPlace | None,
    ) -> Page[LeaderboardRow, BoardPlace | RatingPlace]:
        """``limit`` rows best first (most wins, or the highest rating), from the one after
        ``after`` (the best if None), each with its rank in the whole board: equal places
        share one, the next skips (1, 1, 3)."""
        order = RATING_ORDER if by_rating else board_order(lower_wins)
        where, values = "", list[object]()
        if after is not None:
            condition, values = strictly_after(order, after)
            where = f" WHERE {condition}"
        joined = (  # a player on the board has finished a game, so has a rating (or NEW's)
            "SELECT l.player_id AS player_id, l.name AS name, l.games AS games,"
            f" l.wins AS wins, l.points AS points, COALESCE(r.mu, {NEW.mu!r}) AS rating,"
            f" COALESCE(r.sigma, {NEW.sigma!r}) AS uncertainty"
            " FROM {leaderboard} l LEFT JOIN {ratings} r"
            " ON r.variant = l.variant AND r.rated_id = l.player_id WHERE l.variant = {p}"
        )
        query = (  # ranked before the page is cut: every page has the whole board's ranks
            "SELECT * FROM (SELECT *,"
            f" RANK() OVER (ORDER BY {order_by(order[:2])}) AS standing"
            f" FROM ({joined}) AS joined) AS ranked"
            f"{where} ORDER BY {order_by(order)} LIMIT {int(limit) + 1}"
        )
        rows = self._store.rows(self._sql(query), (variant, *values))
        placed = [(_board_place(row, by_rating), _board_row(row)) for row in rows]
        return page_of(placed, limit)


def _board_place(row: Any, by_rating: bool) -> BoardPlace | RatingPlace:
    if by_rating:
        return RatingPlace(
            rating=float(row["rating"]),
            uncertainty=float(row["uncertainty"]),
            player_id=row["player_id"],
        )
    return BoardPlace(
        wins=int(row["wins"]),
        points=int(row["points"]),
        games=int(row["games"]),
        player_id=row["player_id"],
    )


def _board_row(row: Any) -> LeaderboardRow:
    return LeaderboardRow(
        rank=int(row["standing"]),
        player_id=row["player_id"],
        name=row["name"],
        games=int(row["games"]),
        wins=int(row["wins"]),
        points=int(row["points"]),
        rating=float(row["rating"]),
        uncertainty=float(row["uncertainty"]),
    )
