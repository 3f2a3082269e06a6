"""Pages of the read models' lists, and the places (sort keys) a page starts after."""

from __future__ import annotations

from typing import Generic, TypeVar

import msgspec

Item = TypeVar("Item")
Place = TypeVar("Place")


class Page(msgspec.Struct, Generic[Item, Place], frozen=True, kw_only=True):
    """A page of a list in its order, and where the next page starts: the place (sort key) of
    this page's last item, when more items follow it; None on the last page."""

    items: list[Item]
    next: Place | None


class LobbyPlace(msgspec.Struct, frozen=True, array_like=True):
    """Where a game stands in a list of games (newest first): a page starts after one."""

    created_at: str  # as stored
    game_id: str


class BoardPlace(msgspec.Struct, frozen=True, array_like=True):
    """Where a player stands on a leaderboard (best first): a page starts after one."""

    wins: int
    points: int
    games: int
    player_id: str


class RatingPlace(msgspec.Struct, frozen=True, array_like=True):
    """Where a player stands on a leaderboard by rating (best first)."""

    rating: float
    uncertainty: float
    player_id: str
