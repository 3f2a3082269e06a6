"""What a Double Heartbeat hand is worth to its holder: the cost of shedding it.

A hand's cost is that of its best split into combinations (RULES.md §2): each combination
costs one play plus a weakness (a low one rarely wins its trick, so it needs a lead of its own),
while a bomb wins its own trick and its bonus is still to be scored, so it costs less than
nothing. The split is searched exactly over the rank counts, suits aside: bombs first (every
card of a rank of four or more, one bomb, since the bonus grows with its size), then every
choice of sequences by their lowest rank, then what is left as singles, pairs and triples, each
triple (and each airplane triple) taking a pair as its wings, which saves most of that pair's
cost (the weakest pairs would ride).

Sequences are planned with the ace high only: an ace-low run spends a top single on the lowest
sequence there is. The cost reads ranks only, so it is cached by rank counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from domain.cards import rank
from domain.variants.double_heartbeat.combinations import BOMB_BONUS, LINE

Counts = tuple[int, ...]
"""Cards held of each rank, in sequence order from the two up: ``2 3 4 ... K A``."""

RUN_RANKS: tuple[str, ...] = LINE[2:]
RUN_INDEX = {name: index for index, name in enumerate(RUN_RANKS)}
RANK_COUNT = len(RUN_RANKS)
TOP_INDEX = RANK_COUNT - 1

BONUS_SCALE = 5.0
"""Points of bomb bonus worth one play: a held 6-bomb (+10) counts as two plays saved."""
WEAKNESS = 0.5
"""The extra cost of the lowest combination of a type over its highest."""

# (cards per rank, shortest run) of straights, consecutive pairs and airplanes.
RUNS: tuple[tuple[int, int], ...] = ((1, 5), (2, 3), (3, 2))


def counts_of(cards: Iterable[str]) -> Counts:
    tally = Counter(RUN_INDEX[rank(card)] for card in cards)
    return tuple(tally[index] for index in range(RANK_COUNT))


def minus(counts: Counts, cards: Iterable[str]) -> Counts:
    """``counts`` without ``cards`` (which the hand holds)."""
    left = list(counts)
    for card in cards:
        left[RUN_INDEX[rank(card)]] -= 1
    return tuple(left)


def climbing_strength(index: int) -> float:
    """0 for a three, 1 for a two: the singles order of a rank given by its run index."""
    return 1.0 if index == 0 else (index - 1) / (RANK_COUNT - 1)


def bomb_worth(size: int) -> float:
    """A held bomb's cost: negative, its bonus in plays (it also wins its own trick)."""
    return -BOMB_BONUS[min(size, 8)] / BONUS_SCALE


@lru_cache(maxsize=1 << 14)
def cost(counts: Counts) -> float:
    """The cost of shedding a hand with these rank counts (lower is better)."""
    bombs = sum(bomb_worth(held) for held in counts if held >= 4)
    return bombs + _split(tuple(held if held < 4 else 0 for held in counts), 0, True)


def plays_besides_bombs(counts: Counts) -> int:
    """How many plays the best split needs besides its bombs (of a kind)."""
    return round(_split(tuple(held if held < 4 else 0 for held in counts), 0, False))


def _run_weakness(per_rank: int, top: int) -> float:
    lowest_top = {1: 4, 2: 2, 3: 1}[per_rank]
    return WEAKNESS * (1 - (top - lowest_top) / (TOP_INDEX - lowest_top))


WINGED_PAIR = 1 + 0.75 * WEAKNESS
"""What a pair saves by riding on a triple as its wings (the weakest pairs ride, so most of
the weakness goes too)."""

# Costs by the number of ranks left from a group's rank up (``len(tail)``, the search's key).
_GROUP_COST = {
    RANK_COUNT - index: 1 + WEAKNESS * (1 - climbing_strength(index)) for index in range(RANK_COUNT)
}
_RUN_COST = {
    (per_rank, RANK_COUNT - top): 1 + _run_weakness(per_rank, top)
    for per_rank, _ in RUNS
    for top in range(RANK_COUNT)
}


@lru_cache(maxsize=1 << 15)  # about 10 MB when full; a decision needs a few thousand states
def _split(tail: Counts, unwinged: int, weighed: bool) -> float:
    """Least cost of the highest ``len(tail)`` ranks (counts below four), no run reaching
    below them. ``unwinged`` is the pairs below them less the triples (and airplane triples)
    that may take pairs as wings: each pair left without one costs ``WINGED_PAIR`` more (one
    play when not ``weighed``). Only the tail is in the key, so every state is shared whatever
    lies below it."""
    ranks = len(tail)
    saved = WINGED_PAIR if weighed else 1.0
    if not ranks:
        return saved * max(0, unwinged)
    held = tail[0]
    rest = tail[1:]
    balance = max(unwinged + (held == 2) - (held == 3), 1 - ranks)
    best = _split(rest, balance, weighed)
    if held:
        best += (_GROUP_COST[ranks] if weighed else 1.0) - saved * (held == 2)
    for per_rank, shortest in RUNS:
        if held < per_rank:
            break
        length = 1
        while length < ranks and tail[length] >= per_rank:
            length += 1
        for size in range(shortest, length + 1):
            left = tuple([count - per_rank for count in tail[:size]]) + tail[size:]
            winged = unwinged - size if per_rank == 3 else unwinged
            here = _RUN_COST[per_rank, ranks - size + 1] if weighed else 1.0
            best = min(best, here + _split(left, winged, weighed))
    return best
