"""Ratings: a player's (or a bot level's) rating per variant, and the export of their rated
games from which anyone can re-derive it (docs/ratings.md)."""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version
from uuid import UUID

import msgspec
from eventsourcing.application import AggregateNotFoundError

from bots.levels import VERSIONS
from domain.aggregate import project
from domain.variants import variant_by_id
from projections.ratings import BETA, MU, SIGMA, TAU, Rating, bot_name, bot_of
from service.errors import PLAYER_NOT_FOUND
from service.read_models.models import ReadModels
from service.read_models.rating_tables import CurrentRating, RatedGame
from service.store.event_store import Store
from service.store.records import PlayerRegistered, Record


class RatingModel(msgspec.Struct, frozen=True, kw_only=True):
    """What the ratings are computed with: enough to run the same updates elsewhere."""

    library: str = "openskill"
    library_version: str = msgspec.field(default_factory=lambda: version("openskill"))
    model: str = "PlackettLuce"
    mu: float = MU
    sigma: float = SIGMA
    beta: float = BETA
    tau: float = TAU
    bot_tau: float = 0.0
    order: str = "by position: the log position of each game's end"


class VariantRating(msgspec.Struct, frozen=True, kw_only=True):
    variant: str
    rating: float
    uncertainty: float
    games: int


class PlayerProfile(msgspec.Struct, frozen=True, kw_only=True):
    """A player, or a bot level (``bot``), and their rating in each variant they have played."""

    player_id: str
    name: str
    bot: bool
    ratings: list[VariantRating]


class RatingExport(msgspec.Struct, frozen=True, kw_only=True):
    """Every rated game of one player in one variant, in the order of the updates, with each
    seat's rank and rating before and after: the player's history, and what re-derives it."""

    player_id: str
    variant: str
    model: RatingModel
    rating: Rating | None  # after the last game; None before the first
    games: list[RatedGame]
    """A page of them, from the first that ended after the ``after`` asked for."""
    next_after: int | None
    """Where the next page starts (``?after=``); None on the last page."""


class RatingQueries:
    def __init__(
        self, store: Store, read_models: ReadModels, read_your_writes: Callable[[], None]
    ) -> None:
        self._store = store
        self._read_models = read_models
        self._read_your_writes = read_your_writes

    def profile(self, player_id: str) -> PlayerProfile:
        self._read_your_writes()
        found = self._read_models.ratings_of(player_id)
        return PlayerProfile(
            player_id=player_id,
            name=found[0].name if found else self._known_name(player_id),
            bot=bot_of(player_id) is not None,
            ratings=[_variant_rating(current) for current in found],
        )

    def rating_of(self, player_id: str, variant: str) -> float:
        """The player's rating in ``variant`` as the read models hold it now (no wait for the
        newest games: a queue entry takes the rating known when it joins); the model's
        starting rating for a player not yet rated there. Matchmaking's ratings source."""
        current = self._read_models.rating_of(player_id, variant)
        return MU if current is None else current.rating

    def export(self, player_id: str, variant: str, *, after: int, limit: int) -> RatingExport:
        """A page of ``limit`` rated games, from the first that ended after ``after``."""
        variant_by_id(variant)
        self._read_your_writes()
        current = self._read_models.rating_of(player_id, variant)
        if current is None:
            self._known_name(player_id)  # a player with no games there: an empty export
        games = self._read_models.rated_games(player_id, variant, after=after, limit=limit + 1)
        return RatingExport(
            player_id=player_id,
            variant=variant,
            model=RatingModel(),
            rating=None if current is None else Rating(current.rating, current.uncertainty),
            games=games[:limit],
            next_after=games[limit - 1].position if len(games) > limit else None,
        )

    def _known_name(self, player_id: str) -> str:
        """A bot level's name or a registered player's; 404 if the id names neither (a bot
        level the house has, of any variant, or a registered player)."""
        bot = bot_of(player_id)
        if bot is not None:
            if bot.level not in VERSIONS.get(bot.algorithm, {}):
                raise PLAYER_NOT_FOUND("the house has no bot of that level and algorithm")
            return bot_name(bot.level)
        try:
            record = self._store.repository.get(UUID(player_id), projector_func=project)
        except (ValueError, AggregateNotFoundError):
            raise PLAYER_NOT_FOUND("no player or bot level has that id") from None
        if not isinstance(record, Record) or not isinstance(record.payload, PlayerRegistered):
            raise PLAYER_NOT_FOUND("no player or bot level has that id")
        return record.payload.name


def _variant_rating(current: CurrentRating) -> VariantRating:
    return VariantRating(
        variant=current.variant,
        rating=current.rating,
        uncertainty=current.uncertainty,
        games=current.games,
    )
