"""``cardledger duel``: levels against each other on duplicate deals, as a table.

The games are played in process (``bots.duel``), spread over worker processes by blocks of
deals; each worker times its strong side's decisions, which is why the timing lives here and
not in ``bots``: a bot never reads a clock.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import msgspec

from bots.contract import ALGORITHM, Player
from bots.duel import DealScore, DuelResult, play_deal, summarise
from bots.levels import UnknownLevel, available_levels, player
from domain.aggregate import GameAggregate
from domain.commands import Command
from domain.fairness import Draw
from domain.variants import VARIANTS, variant_by_id
from projections.views import View
from service.tools.duels.peeking import peeking

SEARCH_LEVEL = 3
START_MARK = "<!-- duel table -->"
END_MARK = "<!-- /duel table -->"


class Timed:
    """A player whose decisions are timed (seconds each, in the order made)."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.seconds: list[float] = []

    def choose(self, view: View, draw: Draw) -> Command:
        began = time.perf_counter()
        command = self.inner.choose(view, draw)
        self.seconds.append(time.perf_counter() - began)
        return command


class Matchup(msgspec.Struct, frozen=True):
    variant: str
    seats: int
    strong: int
    weak: int
    algorithm: int = ALGORITHM
    peek: bool = False
    """The strong side searches the real game, hidden cards and all (``peeking``)."""

    def players(self) -> tuple[Player, Player, Callable[[GameAggregate], None] | None]:
        """The strong side's player, the weak side's, and who is told of each game dealt."""
        weak = player(self.variant, self.weak, self.algorithm)
        if not self.peek:
            return player(self.variant, self.strong, self.algorithm), weak, None
        strong, world = peeking(self.variant, self.strong, self.algorithm)
        return strong, weak, world.dealt

    def label(self) -> str:
        strong = f"{self.strong} (sees all)" if self.peek else str(self.strong)
        versus = f"{strong} v {self.weak}"
        return versus if self.algorithm == ALGORITHM else f"{versus} (algorithm {self.algorithm})"


class Measured(msgspec.Struct, frozen=True):
    matchup: Matchup
    result: DuelResult
    p50_ms: float
    p95_ms: float


def default_seats(variant: str) -> int:
    """Four at the table, or as near as the variant allows."""
    rules = variant_by_id(variant)
    return min(max(4, rules.min_seats), rules.max_seats)


def matchups(variants: Sequence[str], algorithm: int = ALGORITHM) -> list[Matchup]:
    """Each level from 2 up against the one below, for each variant."""
    return [
        Matchup(variant, default_seats(variant), level, level - 1, algorithm=algorithm)
        for variant in variants
        for level in available_levels(variant, algorithm)
        if level >= 2
    ]


def _play_block(matchup: Matchup, deals: Sequence[int]) -> tuple[list[DealScore], list[float]]:
    searching, weak, dealt = matchup.players()
    strong = Timed(searching)
    scores = [
        play_deal(matchup.variant, matchup.seats, strong, weak, deal, dealt=dealt) for deal in deals
    ]
    return scores, strong.seconds


def measure(matchup: Matchup, deals: range, jobs: int) -> Measured:
    blocks = [deals[start::jobs] for start in range(jobs) if deals[start::jobs]]
    scores: list[DealScore] = []
    seconds: list[float] = []
    with ProcessPoolExecutor(max_workers=len(blocks)) as pool:
        for block_scores, block_seconds in pool.map(_play_block, [matchup] * len(blocks), blocks):
            scores += block_scores
            seconds += block_seconds
    cuts = statistics.quantiles(seconds, n=20) if len(seconds) > 1 else seconds * 19
    return Measured(
        matchup=matchup,
        result=summarise(matchup.variant, matchup.seats, scores),
        p50_ms=statistics.median(seconds) * 1000,
        p95_ms=cuts[18] * 1000,
    )


HEADER = (
    "| variant | seats | level v level | deals | games | score share | 95% interval"
    " | mean points | move time p50 / p95 |\n"
    "|---|---:|---|---:|---:|---:|---|---|---|\n"
)


def row(measured: Measured) -> str:
    m, r = measured.matchup, measured.result
    return (
        f"| {m.variant} | {m.seats} | {m.label()} | {r.deals} | {r.games}"
        f" | {r.share:.1%} | {r.low:.1%} – {r.high:.1%}"
        f" | {r.strong_points:.2f} v {r.weak_points:.2f}"
        f" | {measured.p50_ms:.2f} / {measured.p95_ms:.2f} ms |"
    )


def table(rows: Sequence[Measured]) -> str:
    return HEADER + "\n".join(row(m) for m in rows) + "\n"


def write_into(path: Path, text: str) -> None:
    """``text`` in place of what stands between the duel table's marks in ``path``."""
    document = path.read_text()
    start = document.index(START_MARK) + len(START_MARK)
    end = document.index(END_MARK)
    path.write_text(document[:start] + "\n" + text + document[end:])


def run(args: argparse.Namespace) -> int:
    variants = sorted(VARIANTS) if args.variant == "all" else [args.variant]
    try:
        chosen = (
            [
                Matchup(
                    v,
                    args.seats or default_seats(v),
                    args.levels[0],
                    args.levels[1],
                    algorithm=args.algorithm,
                    peek=args.peek,
                )
                for v in variants
            ]
            if args.levels
            else matchups(variants, args.algorithm)
        )
        if args.peek and not args.levels:
            raise ValueError(
                "--peek needs --levels: the searching level that peeks, and its opponent"
            )
        for m in chosen:
            m.players()
    except (UnknownLevel, ValueError) as error:
        print(f"duel: {error}", file=sys.stderr)
        return 2
    rows: list[Measured] = []
    for m in chosen:
        began = time.perf_counter()
        deals = args.search_deals if m.strong >= SEARCH_LEVEL and args.search_deals else args.deals
        rows.append(measure(m, range(args.first_deal, args.first_deal + deals), args.jobs))
        print(f"{row(rows[-1])}  ({time.perf_counter() - began:.0f} s)", file=sys.stderr)
    text = table(rows)
    print(text, end="")
    if args.output:
        write_into(Path(args.output), text)
    return 0


def levels(text: str) -> tuple[int, int]:
    strong, weak = (int(part) for part in text.split(","))
    return strong, weak


def add_parser(commands: Any) -> None:
    duel_cmd = commands.add_parser(
        "duel",
        help="play bot levels against each other on duplicate deals and print the table",
    )
    duel_cmd.add_argument(
        "--variant", default="all", help="a variant id, or all (default: %(default)s)"
    )
    duel_cmd.add_argument(
        "--levels",
        type=levels,
        default=None,
        metavar="STRONG,WEAK",
        help="two levels, e.g. 2,1 (default: each level from 2 up against the one below)",
    )
    duel_cmd.add_argument(
        "--algorithm",
        type=int,
        default=ALGORITHM,
        help="the levels of this bot algorithm version (default: %(default)s, today's)",
    )
    duel_cmd.add_argument(
        "--peek",
        action="store_true",
        help="the strong side searches the real game, hidden cards and all, with its level's"
        " search in --algorithm (a tree search where that algorithm has one for the variant,"
        " else the flat search at algorithm 2's budget; a level above 5 doubles the budget"
        " again): what hidden information costs the search,"
        " measured; never a bot anyone plays",
    )
    duel_cmd.add_argument(
        "--seats", type=int, default=0, help="seats at the table (default: 4, or nearest allowed)"
    )
    duel_cmd.add_argument("--deals", type=int, default=200, help="deals (default: %(default)s)")
    duel_cmd.add_argument(
        "--search-deals",
        type=int,
        default=0,
        help=f"deals for a strong level of {SEARCH_LEVEL} or more, whose moves cost rollouts"
        " (default: as --deals)",
    )
    duel_cmd.add_argument(
        "--first-deal", type=int, default=0, help="the first deal's number (default: %(default)s)"
    )
    duel_cmd.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes (default: one per core)",
    )
    duel_cmd.add_argument(
        "--output",
        default="",
        metavar="FILE",
        help=f"also write the table into FILE between {START_MARK} and {END_MARK}",
    )
    duel_cmd.set_defaults(run=run)
