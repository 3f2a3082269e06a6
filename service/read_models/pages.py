"""Pages of the read models' lists, the places (sort keys) a page starts after, the lists'
orders, and the SQL that starts a page after a place."""

from __future__ import annotations

from collections.abc import Sequence
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


Order = tuple[tuple[str, bool], ...]  # (column, descending), most significant first
NEWEST_FIRST: Order = (("created_at", True), ("game_id", True))  # ties by id: a total order


RATING_ORDER: Order = (("rating", True), ("uncertainty", False), ("player_id", False))


def board_order(lower_wins: bool) -> Order:
    """Most wins first, then the best points, then fewer games, then by id (a total order)."""
    return (("wins", True), ("points", not lower_wins), ("games", False), ("player_id", False))


def order_by(order: Order) -> str:
    return ", ".join(f"{column} {'DESC' if descending else 'ASC'}" for column, descending in order)


def strictly_after(order: Order, place: msgspec.Struct) -> tuple[str, list[object]]:
    """The SQL condition that a row comes after ``place`` (whose fields are named after the
    order's columns) in ``order``, and its parameters: for some i, equal to it in the first i
    columns and past it in the next one."""
    values = [getattr(place, column) for column, _ in order]
    terms: list[str] = []
    params: list[object] = []
    for index, (column, descending) in enumerate(order):
        equal = [f"{name} = {{p}}" for name, _ in order[:index]]
        past = f"{column} {'<' if descending else '>'} {{p}}"
        terms.append(f"({' AND '.join([*equal, past])})")
        params += values[: index + 1]
    return f"({' OR '.join(terms)})", params


def page_of(placed: Sequence[tuple[Place, Item]], limit: int) -> Page[Item, Place]:
    """The page of ``limit`` items from rows fetched with one more: that one says a next
    page exists, which starts after this page's last item."""
    more = len(placed) > limit
    return Page(
        items=[item for _, item in placed[:limit]], next=placed[limit - 1][0] if more else None
    )
