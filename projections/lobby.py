"""Read-model rows: a game's lobby entry and its players' leaderboard contributions."""

from __future__ import annotations

from datetime import datetime

import msgspec

from domain.events import BotSeat
from domain.game_state import GameState
from projections.views import end_reason


class LobbySeat(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    player_id: str
    name: str
    left: bool = False
    bot: BotSeat | None = None  # the house's bot at this seat: its level and algorithm


class LobbyEntry(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    variant: str
    status: str
    seat_count: int
    seats: tuple[LobbySeat, ...]
    options: dict[str, object]
    version: int
    created_at: datetime
    updated_at: datetime
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    end_reason: str | None = None  # complete, forfeit or cancelled; None while it runs
    void: bool = False  # cancelled: the scores are the points as they stood, nobody won
    rematch_of: str | None = None  # the ended game this one is a rematch of
    rematch: str | None = None  # the game made as this one's rematch, once there is one


class LeaderboardRow(msgspec.Struct, frozen=True, kw_only=True):
    rank: int
    player_id: str
    name: str
    games: int
    wins: int
    points: int
    rating: float  # projections.ratings: the player's rating in the variant, and its
    uncertainty: float  # uncertainty (one standard deviation)


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """One player's part in one finished game, as the leaderboard counts it."""

    variant: str
    player_id: str
    name: str
    won: bool
    points: int


def lobby_entry(
    state: GameState,
    *,
    version: int,
    created_at: datetime,
    updated_at: datetime,
    rematch: str | None = None,
) -> LobbyEntry:
    seats = tuple(
        LobbySeat(
            seat=index, player_id=seat.player_id, name=seat.name, left=seat.left, bot=seat.bot
        )
        for index, seat in state.taken
    )
    started = state.table is not None
    return LobbyEntry(
        game_id=state.game_id,
        variant=state.variant,
        status=state.status,
        seat_count=state.seat_count,
        seats=seats,
        options=state.options,
        version=version,
        created_at=created_at,
        updated_at=updated_at,
        scores=state.rules.scores(state.table) if started else None,
        winners=state.outcome.winners if state.outcome else None,
        end_reason=end_reason(state),
        void=state.status == "cancelled",
        rematch_of=state.rematch_of,
        rematch=rematch,
    )


def results(state: GameState) -> list[Result]:
    """Every player's result once the game has finished (a cancelled game scores nothing; bots
    are not on the leaderboard)."""
    if state.outcome is None:
        return []
    return [
        Result(
            variant=state.variant,
            player_id=seat.player_id,
            name=seat.name,
            won=index in state.outcome.winners,
            points=state.outcome.scores[index],
        )
        for index, seat in state.taken
        if seat.bot is None
    ]
