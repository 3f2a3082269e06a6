"""What the application's use cases return, and the idempotency key they take."""

from __future__ import annotations

import hashlib
from typing import Generic, TypeVar

import msgspec

from domain.chain import canonical
from projections.events import EventOut
from projections.lobby import LeaderboardRow
from projections.replay import Frame
from projections.views import View


class RegisteredPlayer(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    name: str
    token: str


class CommandResult(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    seat: int | None  # the caller's seat (a join's answer says which it took)
    version: int
    chain_head: str
    events: list[EventOut]
    view: View


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


class Leaderboard(msgspec.Struct, frozen=True, kw_only=True):
    variant: str
    rows: list[LeaderboardRow]


class EventPage(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    events: list[EventOut]
    next_after: int
    head_version: int


class ReplayPage(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    perspective: str
    frames: list[Frame]
    next_from: int | None
    head_version: int


class Idempotency(msgspec.Struct, frozen=True):
    """An Idempotency-Key and the digest of the request it came with."""

    key: str
    digest: str


def request_digest(method: str, path: str, body: object) -> str:
    return hashlib.sha256(
        method.encode() + b" " + path.encode() + b"\n" + canonical(body)
    ).hexdigest()
