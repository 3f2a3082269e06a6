"""One level against another on duplicate deals: the same cards played from every seat by
each side, so the luck of the deal cancels and what is left is skill.

Each deal is played once per seating: the strong side in a block of ``seats // 2`` seats next
to each other, and in the complementary block, at every rotation (each distinct seating once),
so every seat's cards are played by each side equally often. A game scores the strong side by
its cross pairs: for each strong seat and weak seat, 1 if the strong one placed better, ½ if
level, 0 if worse (a winner places above a non-winner; otherwise the better score, lower where
the variant's lowest wins). The score share is the mean over the deal's games, then over deals;
its 95% interval is over deals (normal approximation), as deals are independent.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec

from bots.contract import Player, placed_above
from bots.table import bot_seed, new_game, play_out
from domain.aggregate import GameAggregate
from domain.variant import Outcome
from domain.variants import variant_by_id

Z95 = 1.959964


class DealScore(msgspec.Struct, frozen=True, kw_only=True):
    """One deal played at every seating: the strong side's mean share and each side's points."""

    deal: int
    games: int
    share: float
    strong_points: tuple[int, ...]
    weak_points: tuple[int, ...]


class DuelResult(msgspec.Struct, frozen=True, kw_only=True):
    variant: str
    seats: int
    deals: int
    games: int
    share: float
    """The strong side's mean score share (0.5: no better than the weak side)."""
    low: float
    high: float
    """The 95% confidence interval of ``share`` over deals."""
    strong_points: float
    weak_points: float
    """Mean final points per seat of each side."""


def seatings(seats: int) -> list[tuple[bool, ...]]:
    """Which seats the strong side takes in each game of a deal (True: strong)."""
    found: list[tuple[bool, ...]] = []
    for block in sorted({seats // 2, seats - seats // 2}):
        for shift in range(seats):
            seating = tuple((seat - shift) % seats < block for seat in range(seats))
            if seating not in found:
                found.append(seating)
    return found


def placings(outcome: Outcome, lower_wins: bool) -> list[tuple[bool, int]]:
    """A key per seat that orders seats by placing (greater: placed better)."""
    return [
        (seat in outcome.winners, -score if lower_wins else score)
        for seat, score in enumerate(outcome.scores)
    ]


def cross_share(placing: Sequence[tuple[bool, int]], seating: Sequence[bool]) -> float:
    """The strong side's share of the strong-against-weak pairs of one game."""
    strong = [placing[seat] for seat, is_strong in enumerate(seating) if is_strong]
    weak = [placing[seat] for seat, is_strong in enumerate(seating) if not is_strong]
    points = sum(placed_above(s, w) for s in strong for w in weak)
    return points / (len(strong) * len(weak))


def play_deal(
    variant: str,
    seats: int,
    strong: Player,
    weak: Player,
    deal: int,
    options: dict[str, Any] | None = None,
    *,
    dealt: Callable[[GameAggregate], None] | None = None,
) -> DealScore:
    """Deal number ``deal`` played at every seating of ``seatings(seats)``; ``dealt`` is told
    of each game before it is played (a measurement that looks at the real game hooks in
    there: ``cardledger duel --peek``)."""
    lower_wins = variant_by_id(variant).lower_score_wins
    shares: list[float] = []
    points: dict[bool, list[int]] = {True: [], False: []}
    for seating in seatings(seats):
        players = [strong if is_strong else weak for is_strong in seating]
        seeds = [bot_seed(variant, deal, seat) for seat in range(seats)]
        game = new_game(variant, seats, deal, options)
        if dealt is not None:
            dealt(game)
        game = play_out(game, players, seeds)
        outcome = game.state.outcome
        assert outcome is not None, "a finished game has an outcome"
        shares.append(cross_share(placings(outcome, lower_wins), seating))
        for seat, is_strong in enumerate(seating):
            points[is_strong].append(outcome.scores[seat])
    return DealScore(
        deal=deal,
        games=len(shares),
        share=statistics.fmean(shares),
        strong_points=tuple(points[True]),
        weak_points=tuple(points[False]),
    )


def summarise(variant: str, seats: int, scores: Sequence[DealScore]) -> DuelResult:
    """The duel's result from its deals' scores (in any order)."""
    shares = [score.share for score in scores]
    share = statistics.fmean(shares)
    spread = statistics.stdev(shares) if len(shares) > 1 else math.inf
    margin = Z95 * spread / math.sqrt(len(shares))
    return DuelResult(
        variant=variant,
        seats=seats,
        deals=len(shares),
        games=sum(score.games for score in scores),
        share=share,
        low=max(0.0, share - margin),
        high=min(1.0, share + margin),
        strong_points=statistics.fmean(p for score in scores for p in score.strong_points),
        weak_points=statistics.fmean(p for score in scores for p in score.weak_points),
    )


def duel(
    variant: str,
    seats: int,
    strong: Player,
    weak: Player,
    deals: Iterable[int],
    options: dict[str, Any] | None = None,
) -> DuelResult:
    """Every deal of ``deals`` played at every seating of ``seatings(seats)``."""
    scores = [play_deal(variant, seats, strong, weak, deal, options) for deal in deals]
    return summarise(variant, seats, scores)
