"""What the application's use cases return, as plain values."""

from __future__ import annotations

import msgspec

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
    # GET /games/{id}/log when this command seated someone, created or ended the game: the
    # game's receipt from the witnessed log, ready once a checkpoint covers the new entry
    # (within about a second; docs/transparency.md). None otherwise.
    log: str | None = None


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
