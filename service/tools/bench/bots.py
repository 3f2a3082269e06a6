"""Section "bots": how long a level-5 decision takes, beside a random game of the same variant.

Positions come from whole games of the variant played by level 1 at every seat (up to 400 positions
a seat was asked to decide in); each is decided once by level 5, timed as the CPU time of the
deciding thread (``time.thread_time``: what one core spends, not what a busy machine's
scheduler adds while other processes run, the bound being "on one core"). The baseline
is a whole random game through the rule engine alone (``engine.random_playout``) measured in the
same run, so the ratio reads "a level-5 move costs this many random games". The issue's bound:
p95 at most 50 ms.
"""

from __future__ import annotations

import statistics
import time

from bots.contract import Random, bot_draw
from bots.levels import available_levels, player
from bots.table import bot_seed, new_game, play_out
from domain.aggregate import GameAggregate
from domain.commands import Command
from domain.fairness import Draw
from domain.variants import VARIANTS
from projections.views import View
from service.tools.bench.engine import random_playout
from service.tools.bench.figures import Figure

SEATS = 4
TOP = 5


def positions(variant: str, games: int) -> list[tuple[View, Draw]]:
    """Every decision of ``games`` random games at ``SEATS`` seats (or the nearest allowed)."""
    rules = VARIANTS[variant]
    seats = min(max(SEATS, rules.min_seats), rules.max_seats)
    found: list[tuple[View, Draw]] = []

    def keep(game: GameAggregate, seat: int, view: View, command: Command) -> None:
        found.append((view, bot_draw(b"\x05" * 32, view.game_id, seat, view.version)))

    for deal in range(games):
        seeds = [bot_seed(variant, deal, s) for s in range(seats)]
        play_out(new_game(variant, seats, deal), [Random()] * seats, seeds, watch=keep)
    return found


def decision_figures(variant: str, games: int, limit: int) -> list[Figure]:
    """Level ``TOP``'s move time at up to about ``limit`` positions spread over ``games`` games."""
    decide = player(variant, TOP)
    everywhere = positions(variant, games)
    found = everywhere[:: max(1, len(everywhere) // limit)]
    seconds = []
    for view, draw in found:
        started = time.thread_time()
        decide.choose(view, draw)
        seconds.append(time.thread_time() - started)
    baseline = []
    for seed in range(20):
        started = time.thread_time()
        random_playout(variant, found[0][0].seat_count, seed, {})
        baseline.append(time.thread_time() - started)
    game_ms = statistics.median(baseline) * 1000
    cuts = statistics.quantiles(seconds, n=20)
    held = sorted(len(view.hand or ()) for view, _ in found)
    note = (
        f"CPU time; {len(found)} positions spread over {games} games at"
        f" {found[0][0].seat_count} seats, {held[0]}-{held[-1]} cards in hand"
    )
    return [
        Figure(
            section="bots",
            name=f"{variant}: level-{TOP} move, {label}",
            value=value * 1000,
            unit="ms",
            baseline="one random game through the rules (median)",
            baseline_value=game_ms,
            higher_is_better=False,
            note=note,
        )
        for label, value in (("p50", statistics.median(seconds)), ("p95", cuts[18]))
    ]


def figures(quick: bool) -> list[Figure]:
    games, limit = (1, 8) if quick else (10, 400)
    return [
        figure
        for variant in sorted(VARIANTS)
        if TOP in available_levels(variant)
        for figure in decision_figures(variant, games, limit)
    ]
