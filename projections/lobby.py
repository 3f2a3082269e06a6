"""The lobby: every game's status, variant and seats, folded from the lifecycle events."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

import msgspec

from domain.aggregate import Recorded
from domain.events import (
    GameCancelled,
    GameCreated,
    GameFinished,
    GameStarted,
    PlayerLeft,
    SeatTaken,
    topic,
)

LOBBY_TOPICS: tuple[str, ...] = tuple(
    topic(kind)
    for kind in (GameCreated, SeatTaken, GameStarted, PlayerLeft, GameCancelled, GameFinished)
)


class LobbySeat(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    player_id: str
    name: str
    left: bool = False


class LobbyEntry(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    variant: str
    status: str
    seat_count: int
    seats: tuple[LobbySeat, ...]
    options: dict[str, object]
    created_at: datetime
    updated_at: datetime
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None


class Lobby:
    """An in-memory read model with its position in the notification log."""

    def __init__(self) -> None:
        self.position = 0
        self._games: dict[str, LobbyEntry] = {}

    def apply(self, position: int, recorded: Recorded) -> None:
        self.position = max(self.position, position)
        game_id = str(recorded.originator_id)
        event = recorded.payload
        replace = msgspec.structs.replace
        if isinstance(event, GameCreated):
            self._games[game_id] = LobbyEntry(
                game_id=game_id,
                variant=event.variant,
                status="waiting",
                seat_count=event.seat_count,
                seats=(),
                options=event.options,
                created_at=recorded.timestamp,
                updated_at=recorded.timestamp,
            )
            return
        entry = self._games.get(game_id)
        if entry is None:
            return
        entry = replace(entry, updated_at=recorded.timestamp)
        if isinstance(event, SeatTaken):
            seat = LobbySeat(seat=event.seat, player_id=event.player_id, name=event.name)
            entry = replace(entry, seats=(*entry.seats, seat))
        elif isinstance(event, GameStarted):
            entry = replace(entry, status="active")
        elif isinstance(event, PlayerLeft):
            seats = tuple(replace(s, left=True) if s.seat == event.seat else s for s in entry.seats)
            entry = replace(entry, seats=seats)
        elif isinstance(event, GameCancelled):
            entry = replace(entry, status="cancelled")
        elif isinstance(event, GameFinished):
            entry = replace(entry, status="finished", scores=event.scores, winners=event.winners)
        self._games[game_id] = entry

    def apply_all(self, notifications: Iterable[tuple[int, Recorded]]) -> None:
        for position, recorded in notifications:
            self.apply(position, recorded)

    def entries(self, *, status: str | None = None, variant: str | None = None) -> list[LobbyEntry]:
        selected = [
            entry
            for entry in self._games.values()
            if (status is None or entry.status == status)
            and (variant is None or entry.variant == variant)
        ]
        return sorted(selected, key=lambda entry: entry.created_at, reverse=True)
