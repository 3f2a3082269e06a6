"""What is still out: the cards a seat has not seen, and whether they could beat a play.

A seat has seen its own hand, every card played this hand (``discards``) and, as the dealer,
what it buried; every other card of the two decks may be in an opponent's hand (or buried by
another dealer, which nobody can rule out). A play nobody could beat with a play of its own
type from those cards is a sure winner, bombs aside.
"""

from __future__ import annotations

from collections.abc import Iterable

from bots.rule_based.double_heartbeat.plan import RANK_COUNT, Counts, counts_of
from domain.variants.double_heartbeat.combinations import (
    ACE_HIGH,
    SEQUENCE_KINDS,
    Combination,
)

COPIES = 8  # two decks: eight cards of every rank
PER_RANK = {"straight": 1, "consecutive_pairs": 2, "airplane": 3, "airplane_pairs": 3}
RUN_LENGTH_DIVISOR = {"straight": 1, "consecutive_pairs": 2, "airplane": 3, "airplane_pairs": 5}


def unseen(seen: Iterable[str]) -> Counts:
    """Cards of each rank (sequence order, see ``plan.Counts``) the seat has not seen."""
    return tuple(COPIES - held for held in counts_of(seen))


def _index_of_climbing(top: int) -> int:
    """The sequence-order index of a rank given by its singles-order index (the two is top)."""
    return 0 if top == RANK_COUNT - 1 else top + 1


def _climbing_ranks_above(top: int) -> list[int]:
    return [_index_of_climbing(higher) for higher in range(top + 1, RANK_COUNT)]


def beatable(combination: Combination, out: Counts) -> bool:
    """Whether the unseen cards ``out`` could make a higher play of the same type."""
    if combination.is_bomb:
        return False
    kind = combination.kind
    if kind in SEQUENCE_KINDS:
        per_rank = PER_RANK[kind]
        length = combination.count // RUN_LENGTH_DIVISOR[kind]
        for top in range(combination.top + 1, ACE_HIGH + 1):
            window = range(top - length + 1, top + 1)  # line positions; the two stands at 2
            if window.start >= 2 and all(out[position - 2] >= per_rank for position in window):
                return True
        return False
    needed = 3 if kind == "triple_pair" else combination.count
    higher = [index for index in _climbing_ranks_above(combination.top) if out[index] >= needed]
    if kind != "triple_pair":
        return bool(higher)
    return any(out[other] >= 2 for index in higher for other in range(RANK_COUNT) if other != index)
