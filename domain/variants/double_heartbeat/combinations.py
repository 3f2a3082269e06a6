"""Double Heartbeat combinations (RULES.md §2): what a set of cards reads as, and what beats what.

Two orders are in use. Of-a-kind types (single, pair, triple, triple+pair, bombs) use the
singles order ``3 < 4 < ... < K < A < 2``; their ``top`` is the index in ``CLIMBING_ORDER``.
Sequences (straight, consecutive pairs, airplanes, straight flush) lie on the line
``A(1) 2 3 ... K A(14)``: an ace is low or high, never both, and nothing wraps (``K-A-2`` is not
a sequence); their ``top`` is the position of the highest card on that line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Literal, get_args

import msgspec

from domain.cards import CLIMBING_INDEX, CLIMBING_ORDER, rank, suit
from domain.errors import invalid

Kind = Literal[
    "single",
    "pair",
    "triple",
    "triple_pair",
    "straight",
    "consecutive_pairs",
    "airplane",
    "airplane_pairs",
    "bomb",
    "straight_flush",
]
KINDS: tuple[Kind, ...] = get_args(Kind)
SEQUENCE_KINDS: frozenset[Kind] = frozenset(
    ("straight", "consecutive_pairs", "airplane", "airplane_pairs", "straight_flush")
)
BOMB_KINDS: frozenset[Kind] = frozenset(("bomb", "straight_flush"))

# Positions on the sequence line; an ace stands at 14 here and may move to 1.
ACE_LOW, ACE_HIGH = 1, 14
SEQUENCE_POSITION: dict[str, int] = {
    **{str(value): value for value in range(2, 11)},
    "J": 11,
    "Q": 12,
    "K": 13,
    "A": ACE_HIGH,
}
LINE: tuple[str, ...] = ("", "A", *(str(v) for v in range(2, 11)), "J", "Q", "K", "A")
"""The rank at each position of the sequence line (index 0 unused)."""

MIN_RUN: dict[Kind, int] = {
    "straight": 5,
    "straight_flush": 5,
    "consecutive_pairs": 3,
    "airplane": 2,
    "airplane_pairs": 2,
}
BOMB_BONUS = {4: 2, 5: 5, 6: 10, 7: 15, 8: 20}
STRAIGHT_FLUSH_BONUS = 5
MAX_OF_A_KIND = 8  # a double deck holds 8 cards of each rank
UNBEATABLE = MAX_OF_A_KIND


class Combination(msgspec.Struct, frozen=True):
    """One reading of a set of cards: its type, card count and the value it is compared by."""

    kind: Kind
    count: int
    top: int

    @property
    def is_bomb(self) -> bool:
        return self.kind in BOMB_KINDS

    @property
    def rank(self) -> str:
        """The rank that decides comparisons (the top card, the triple, the bomb's rank)."""
        return LINE[self.top] if self.kind in SEQUENCE_KINDS else CLIMBING_ORDER[self.top]

    @property
    def power(self) -> tuple[int, int, int, int]:
        """Bomb strength: cards first; a straight flush is a 5-card bomb above 5 of a kind."""
        if self.kind == "straight_flush":
            return (5, 1, self.count, self.top)
        return (self.count, 0, 0, self.top)

    @property
    def bonus(self) -> int:
        """Points its player scores at once (RULES.md §2, bomb bonus)."""
        if self.kind == "straight_flush":
            return STRAIGHT_FLUSH_BONUS
        return BOMB_BONUS[self.count] if self.kind == "bomb" else 0

    def describe(self) -> str:
        name = self.kind.replace("_", " ")
        return f"{name} of {self.count} card{'s' * (self.count > 1)} ({self.rank})"


def beats(new: Combination, old: Combination) -> bool:
    """Whether ``new`` may be played over ``old`` as a stronger combination."""
    if old.kind == "bomb" and old.count == UNBEATABLE:
        return False
    if new.is_bomb != old.is_bomb:
        return new.is_bomb
    if new.is_bomb:
        return new.power > old.power
    return (new.kind, new.count) == (old.kind, old.count) and new.top > old.top


def run_top(ranks: Iterable[str]) -> int | None:
    """The top position of a run made of exactly these distinct ranks, if they form one.

    With an ace the run may read with the ace low or high; when both work (all 13 ranks) the
    higher reading is the one a player would choose, so it is the one returned.
    """
    high = {SEQUENCE_POSITION[name] for name in ranks}
    readings = [high]
    if ACE_HIGH in high:
        readings.append(high - {ACE_HIGH} | {ACE_LOW})
    tops = [max(r) for r in readings if max(r) - min(r) + 1 == len(r)]
    return max(tops) if tops else None


def classify(cards: Sequence[str]) -> tuple[Combination, ...]:
    """Every type the cards read as (at most one reading per type, the strongest)."""
    if not cards:
        return ()
    counts = Counter(rank(card) for card in cards)
    size = len(cards)
    readings: list[Combination] = []
    if len(counts) == 1:
        of_a_kind = _of_a_kind(size)
        if of_a_kind is not None:
            readings.append(Combination(of_a_kind, size, CLIMBING_INDEX[rank(cards[0])]))
        return tuple(readings)
    shape = sorted(counts.values())
    if shape == [2, 3]:
        triple = next(name for name, count in counts.items() if count == 3)
        readings.append(Combination("triple_pair", size, CLIMBING_INDEX[triple]))
    top = run_top(counts) if len(set(shape)) == 1 else None
    if top is not None:
        per_rank = shape[0]
        if per_rank == 1 and size >= MIN_RUN["straight"]:
            flush = len({suit(card) for card in cards}) == 1
            readings.append(Combination("straight_flush" if flush else "straight", size, top))
        elif per_rank == 2 and len(counts) >= MIN_RUN["consecutive_pairs"]:
            readings.append(Combination("consecutive_pairs", size, top))
        elif per_rank == 3 and len(counts) >= MIN_RUN["airplane"]:
            readings.append(Combination("airplane", size, top))
    if size % 5 == 0 and size // 5 >= MIN_RUN["airplane_pairs"]:
        chain_top = _airplane_chain_top(counts, size // 5)
        if chain_top is not None:
            readings.append(Combination("airplane_pairs", size, chain_top))
    return tuple(readings)


def _of_a_kind(count: int) -> Kind | None:
    if count <= 3:
        return ("single", "pair", "triple")[count - 1]
    return "bomb" if count <= MAX_OF_A_KIND else None


def _airplane_chain_top(counts: Counter[str], triples: int) -> int | None:
    """The best chain of ``triples`` consecutive triples whose leftover cards are all pairs.

    Pairs must lie outside the chain, so each chain rank holds exactly three cards; every other
    rank holds an even number of cards (two pairs of one rank are allowed).
    """
    best = None
    for top in range(triples, ACE_HIGH + 1):
        chain = {LINE[position] for position in range(top - triples + 1, top + 1)}
        if len(chain) < triples:  # a chain of all 13 ranks would hold the ace twice
            continue
        if all(counts[name] == 3 for name in chain) and all(
            count % 2 == 0 for name, count in counts.items() if name not in chain
        ):
            best = top
    return best


def describe_all(readings: Iterable[Combination]) -> str:
    return ", ".join(reading.describe() for reading in readings)


def choose_reading(readings: Sequence[Combination], named: Kind | None) -> Combination:
    """The reading a play means: the named type, or the only type the cards read as."""
    if named is not None:
        matching = [reading for reading in readings if reading.kind == named]
        if matching:
            return matching[0]
        if readings:
            raise invalid(
                "combination_mismatch",
                f"these cards are not a {named.replace('_', ' ')}; "
                f"they read as: {describe_all(readings)}",
            )
        raise invalid(
            "not_a_combination", f"these cards are not a {named.replace('_', ' ')} (nor any type)"
        )
    if not readings:
        raise invalid("not_a_combination", "these cards form no combination of this game")
    if len(readings) > 1:
        kinds = ", ".join(reading.kind for reading in readings)
        raise invalid(
            "ambiguous_combination",
            f"these cards read as several types ({kinds}): name one in 'combination'",
        )
    return readings[0]


def read(cards: Sequence[str], named: Kind | None = None) -> Combination:
    return choose_reading(classify(cards), named)
