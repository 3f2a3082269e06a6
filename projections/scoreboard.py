"""Per-game scoreboard: each scored line, totals and the ranking."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import msgspec

from domain.game_state import GameState
from domain.variant import ScoreRow
from projections.views import end_reason


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    rank: int
    seat: int
    name: str
    total: int
    winner: bool


class Scoreboard(msgspec.Struct, frozen=True, kw_only=True):
    """``ranking`` is empty for a cancelled game (``void``): its totals are the points as they
    stood, and nobody won or ranks (RULES.md, Cancelling)."""

    game_id: str
    variant: str
    status: str
    rows: tuple[ScoreRow, ...]
    totals: tuple[int, ...]
    ranking: tuple[Standing, ...]
    winners: tuple[int, ...] | None
    end_reason: str | None = None
    void: bool = False


def placing(state: GameState, totals: tuple[int, ...]) -> Callable[[int], tuple[bool, int]]:
    """A seat's place as a sort key (smaller: placed better): winners first, then by total
    (lower first where the variant's lowest wins)."""
    sign = 1 if state.rules.lower_score_wins else -1
    winners = state.outcome.winners if state.outcome else ()
    return lambda seat: (seat not in winners, sign * totals[seat])


def shared_ranks(order: Sequence[int], key: Callable[[int], Hashable]) -> list[int]:
    """The rank of each seat of ``order`` (sorted by ``key``): equal keys share a rank, the
    next skips (1, 1, 3)."""
    ranks: list[int] = []
    for position, seat in enumerate(order):
        tied = position > 0 and key(seat) == key(order[position - 1])
        ranks.append(ranks[-1] if tied else position + 1)
    return ranks


def ranking(state: GameState, totals: tuple[int, ...]) -> tuple[Standing, ...]:
    """Winners first (a forfeit's winner may trail a seat that left), then by total; equal
    places share a rank."""
    if state.status == "cancelled":
        return ()
    place = placing(state, totals)
    order = sorted((index for index, _ in state.taken), key=lambda seat: (*place(seat), seat))
    return tuple(
        Standing(
            rank=rank,
            seat=seat,
            name=state.seat(seat).name,
            total=totals[seat],
            winner=not place(seat)[0],
        )
        for seat, rank in zip(order, shared_ranks(order, place), strict=True)
    )


def scoreboard(state: GameState) -> Scoreboard:
    rules = state.rules
    started = state.table is not None
    totals = rules.scores(state.table) if started else (0,) * state.seat_count
    rows = tuple(rules.score_rows(state.table)) if started else ()
    return Scoreboard(
        game_id=state.game_id,
        variant=state.variant,
        status=state.status,
        rows=rows,
        totals=totals,
        ranking=ranking(state, totals),
        winners=state.outcome.winners if state.outcome else None,
        end_reason=end_reason(state),
        void=state.status == "cancelled",
    )
