"""The ratings' tables: each rated id's current rating per variant, every rated game with its
seats' ratings before and after (in the order the updates were made: the log position of the
game's end), and which rated games each rated id took part in.

Ratings are floats; both stores keep them as 8-byte IEEE doubles, and their JSON keeps the
shortest text that reads back to the same double, so a rebuild compares equal bit for bit.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from projections.ratings import RatedSeat, Rating
from service.read_models.table_group import TableGroup


class RatedGame(msgspec.Struct, frozen=True, kw_only=True):
    """One rated game: ``position`` (the log position of its end) orders the updates."""

    position: int
    game_id: str
    variant: str
    seats: list[RatedSeat]


class CurrentRating(msgspec.Struct, frozen=True, kw_only=True):
    variant: str
    rated_id: str
    name: str
    bot: bool
    rating: float
    uncertainty: float
    games: int


class RatingTables(TableGroup):
    TABLES = ("ratings", "rated_games", "rating_history")

    def create(self, cursor: Any, *, fresh: bool) -> None:
        if fresh:
            self.drop(cursor)
        cursor.execute(
            self._sql(
                "CREATE TABLE IF NOT EXISTS {ratings} ("
                "variant TEXT NOT NULL, rated_id TEXT NOT NULL, name TEXT NOT NULL,"
                " bot BOOLEAN NOT NULL, mu DOUBLE PRECISION NOT NULL,"
                " sigma DOUBLE PRECISION NOT NULL, games BIGINT NOT NULL,"
                " PRIMARY KEY (variant, rated_id))"
            )
        )
        cursor.execute(
            self._sql(
                "CREATE TABLE IF NOT EXISTS {rated_games} ("
                "position BIGINT PRIMARY KEY, game_id TEXT NOT NULL, variant TEXT NOT NULL,"
                " seats TEXT NOT NULL)"
            )
        )
        cursor.execute(
            self._sql(
                "CREATE TABLE IF NOT EXISTS {rating_history} ("
                "rated_id TEXT NOT NULL, variant TEXT NOT NULL, position BIGINT NOT NULL,"
                " PRIMARY KEY (rated_id, variant, position))"
            )
        )

    # --- writes (inside Store.transact) ----------------------------------------------------------

    def record(
        self, cursor: Any, games: list[RatedGame], after: dict[tuple[str, str], Rating]
    ) -> None:
        """The rated games of a batch, and the ratings they left (keyed by variant, rated id)."""
        if not games:
            return
        cursor.executemany(
            self._sql(
                "INSERT INTO {rated_games} (position, game_id, variant, seats)"
                " VALUES ({p}, {p}, {p}, {p})"
            ),
            [
                (
                    game.position,
                    game.game_id,
                    game.variant,
                    msgspec.json.encode(game.seats).decode(),
                )
                for game in games
            ],
        )
        cursor.executemany(
            self._sql(
                "INSERT INTO {rating_history} (rated_id, variant, position)"
                " VALUES ({p}, {p}, {p}) ON CONFLICT DO NOTHING"
            ),
            [(seat.rated_id, game.variant, game.position) for game in games for seat in game.seats],
        )
        names, counts = _names_and_counts(games)
        cursor.executemany(
            self._sql(
                "INSERT INTO {ratings} (variant, rated_id, name, bot, mu, sigma, games)"
                " VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p})"
                " ON CONFLICT (variant, rated_id) DO UPDATE SET name = excluded.name,"
                " mu = excluded.mu, sigma = excluded.sigma,"
                " games = {ratings}.games + excluded.games"
            ),
            [
                (
                    variant,
                    rated,
                    *names[variant, rated],
                    rating.mu,
                    rating.sigma,
                    counts[variant, rated],
                )
                for (variant, rated), rating in after.items()
            ],
        )

    # --- reads -----------------------------------------------------------------------------------

    def current(self, keys: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Rating]:
        """The current ratings of those (variant, rated id) pairs that have one."""
        wanted = sorted(set(keys))
        if not wanted:
            return {}
        by_variant: dict[str, list[str]] = {}
        for variant, rated in wanted:
            by_variant.setdefault(variant, []).append(rated)
        conditions = " OR ".join(  # one statement: the ratings of every variant in one snapshot
            f"(variant = {{p}} AND rated_id IN ({', '.join(['{p}'] * len(ids))}))"
            for ids in by_variant.values()
        )
        rows = self._store.rows(
            self._sql(f"SELECT variant, rated_id, mu, sigma FROM {{ratings}} WHERE {conditions}"),
            [value for variant, ids in by_variant.items() for value in (variant, *ids)],
        )
        return {
            (row["variant"], row["rated_id"]): Rating(float(row["mu"]), float(row["sigma"]))
            for row in rows
        }

    def of(self, rated_id: str) -> list[CurrentRating]:
        """A rated id's current rating in every variant it has played, by variant."""
        rows = self._store.rows(
            self._sql(
                "SELECT variant, rated_id, name, bot, mu, sigma, games FROM {ratings}"
                " WHERE rated_id = {p} ORDER BY variant"
            ),
            (rated_id,),
        )
        return [_current(row) for row in rows]

    def everyone(self) -> list[CurrentRating]:
        """Every current rating, by variant and rated id (what a rebuild is compared on)."""
        rows = self._store.rows(
            self._sql(
                "SELECT variant, rated_id, name, bot, mu, sigma, games FROM {ratings}"
                " ORDER BY variant, rated_id"
            )
        )
        return [_current(row) for row in rows]

    def games_of(
        self, rated_id: str, variant: str, *, after: int = 0, limit: int | None = None
    ) -> list[RatedGame]:
        """The rated games of a rated id in a variant that ended after log position ``after``,
        in the order of the updates (at most ``limit``; every one if None)."""
        cut = "" if limit is None else f" LIMIT {int(limit)}"
        rows = self._store.rows(
            self._sql(
                "SELECT g.position, g.game_id, g.variant, g.seats FROM {rating_history} h"
                " JOIN {rated_games} g ON g.position = h.position"
                " WHERE h.rated_id = {p} AND h.variant = {p} AND h.position > {p}"
                f" ORDER BY g.position{cut}"
            ),
            (rated_id, variant, after),
        )
        return [
            RatedGame(
                position=int(row["position"]),
                game_id=row["game_id"],
                variant=row["variant"],
                seats=msgspec.json.decode(row["seats"], type=list[RatedSeat]),
            )
            for row in rows
        ]


def _json(value: object) -> str:
    return msgspec.json.encode(value).decode()


def _current(row: Any) -> CurrentRating:
    return CurrentRating(
        variant=row["variant"],
        rated_id=row["rated_id"],
        name=row["name"],
        bot=bool(row["bot"]),
        rating=float(row["mu"]),
        uncertainty=float(row["sigma"]),
        games=int(row["games"]),
    )


def _names_and_counts(
    games: list[RatedGame],
) -> tuple[dict[tuple[str, str], tuple[str, bool]], dict[tuple[str, str], int]]:
    """Each rated id's latest name and whether it is a bot, and how many of the games it
    played (once per game, however many seats a bot level held)."""
    names: dict[tuple[str, str], tuple[str, bool]] = {}
    counts: dict[tuple[str, str], int] = {}
    for game in games:
        for key in {(game.variant, seat.rated_id) for seat in game.seats}:
            counts[key] = counts.get(key, 0) + 1
        for seat in game.seats:
            names[game.variant, seat.rated_id] = (seat.name, seat.bot)
    return names, counts
