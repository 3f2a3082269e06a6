"""Per-game scoreboard: each scored line, totals and the ranking."""

from __future__ import annotations

import msgspec

from domain.game import GameState
from domain.variant import ScoreRow


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    rank: int
    seat: int
    name: str
    total: int
    winner: bool


class Scoreboard(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    variant: str
    status: str
    rows: tuple[ScoreRow, ...]
    totals: tuple[int, ...]
    ranking: tuple[Standing, ...]
    winners: tuple[int, ...] | None


def scoreboard(state: GameState) -> Scoreboard:
    rules = state.rules
    sign = 1 if rules.lower_score_wins else -1
    started = state.table is not None
    totals = rules.scores(state.table) if started else (0,) * state.seat_count
    rows = tuple(rules.score_rows(state.table)) if started else ()
    winners = state.outcome.winners if state.outcome else None
    order = sorted(range(len(state.seats)), key=lambda s: (sign * totals[s], s))
    ranking: list[Standing] = []
    for position, seat in enumerate(order):
        tied_with_previous = position > 0 and totals[seat] == totals[order[position - 1]]
        rank = ranking[-1].rank if tied_with_previous else position + 1
        ranking.append(
            Standing(
                rank=rank,
                seat=seat,
                name=state.seats[seat].name,
                total=totals[seat],
                winner=winners is not None and seat in winners,
            )
        )
    return Scoreboard(
        game_id=state.game_id,
        variant=state.variant,
        status=state.status,
        rows=rows,
        totals=totals,
        ranking=tuple(ranking),
        winners=winners,
    )
