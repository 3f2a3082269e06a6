"""Every distinct combination a hand can play, one representative set of cards for each.

"Distinct" means a different rank pattern: suits are chosen by the representative (a straight
needs two suits at least, a straight flush is listed apart). Airplane+pairs are the exception:
their wings multiply combinatorially (thousands of wing choices in a 36-card hand), so each chain
is one candidate holding the chain's triples and, in ``wings``, every pair it may take its wings
from (the legal commands turn it into a choice form: pick exactly ``count / 5`` of them).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence

import msgspec

from domain.cards import CLIMBING_INDEX, SUITS, rank, suit
from domain.variants.double_heartbeat.combinations import (
    ACE_HIGH,
    KINDS,
    LINE,
    MIN_RUN,
    Combination,
    Kind,
)

SMALL_KINDS: tuple[tuple[int, Kind], ...] = ((1, "single"), (2, "pair"), (3, "triple"))
OF_A_KIND: frozenset[Kind] = frozenset(("single", "pair", "triple", "bomb"))
FULL_LINE = 13  # a run of all 13 ranks; read with the ace high (see combinations.run_top)


class Candidate(msgspec.Struct, frozen=True):
    """A combination and its cards; for airplane+pairs ``cards`` are the chain's triples and
    ``wings`` the pairs to choose its wings from (None for every other type)."""

    combination: Combination
    cards: tuple[str, ...]
    wings: tuple[tuple[str, str], ...] | None = None


_CARD_ORDER = {
    name + suit_code: (CLIMBING_INDEX[name], SUITS.index(suit_code))
    for name in CLIMBING_INDEX
    for suit_code in SUITS
}
KIND_ORDER = {kind: index for index, kind in enumerate(KINDS)}


def card_order(card: str) -> tuple[int, int]:
    """Display order of cards: singles order, then suit order S, H, D, C."""
    return _CARD_ORDER.get(card, (len(CLIMBING_INDEX), 0))  # jokers (not in this game) last


def representatives(hand: Sequence[str], kinds: Collection[Kind] = KINDS) -> list[Candidate]:
    """One candidate per distinct playable combination of the given kinds, in a stable order."""
    by_rank: dict[str, list[str]] = {}
    for card in sorted(hand, key=card_order):
        by_rank.setdefault(rank(card), []).append(card)
    found: list[Candidate] = []
    if not OF_A_KIND.isdisjoint(kinds):
        found += _of_a_kind(by_rank)
    builders: tuple[tuple[Kind, Callable[[], Iterable[Candidate]]], ...] = (
        ("triple_pair", lambda: _triple_pairs(by_rank)),
        ("straight", lambda: _straights(by_rank)),
        ("straight_flush", lambda: _straight_flushes(hand)),
        ("consecutive_pairs", lambda: _multiples(by_rank, "consecutive_pairs", 2)),
        ("airplane", lambda: _multiples(by_rank, "airplane", 3)),
        ("airplane_pairs", lambda: _airplanes_with_pairs(by_rank, len(hand))),
    )
    for kind, build in builders:
        if kind in kinds:
            found += build()
    found = [c for c in found if c.combination.kind in kinds]
    found.sort(key=_stable_key)
    return found


def _stable_key(candidate: Candidate) -> tuple[int, int, int]:
    """Type, size, strength; the sort is stable, so ties keep their (deterministic) build order."""
    combination = candidate.combination
    return KIND_ORDER[combination.kind], combination.count, combination.top


def _of_a_kind(by_rank: dict[str, list[str]]) -> Iterator[Candidate]:
    for name, cards in by_rank.items():
        top = CLIMBING_INDEX[name]
        for count, kind in SMALL_KINDS:
            if len(cards) >= count:
                yield Candidate(Combination(kind, count, top), tuple(cards[:count]))
        for count in range(4, len(cards) + 1):
            yield Candidate(Combination("bomb", count, top), tuple(cards[:count]))


def _triple_pairs(by_rank: dict[str, list[str]]) -> Iterator[Candidate]:
    for triple, cards in by_rank.items():
        if len(cards) < 3:
            continue
        for pair, others in by_rank.items():
            if pair != triple and len(others) >= 2:
                combination = Combination("triple_pair", 5, CLIMBING_INDEX[triple])
                yield Candidate(combination, (*cards[:3], *others[:2]))


def _windows(available: Callable[[int], bool], minimum: int) -> Iterator[tuple[int, int]]:
    """(low, top) positions of every run on the sequence line where each rank is available."""
    for low in range(1, ACE_HIGH + 1):
        top = low
        while top <= ACE_HIGH and available(top):
            length = top - low + 1
            if length > FULL_LINE:
                break
            if length >= minimum and not (low == 1 and length == FULL_LINE):
                yield low, top
            top += 1


def _straights(by_rank: dict[str, list[str]]) -> Iterator[Candidate]:
    for low, top in _windows(lambda p: LINE[p] in by_rank, MIN_RUN["straight"]):
        names = [LINE[p] for p in range(low, top + 1)]
        chosen = [by_rank[name][0] for name in names]
        first_suit = suit(chosen[0])
        if all(suit(card) == first_suit for card in chosen):
            swap = next(
                (
                    (index, card)
                    for index, name in enumerate(names)
                    for card in by_rank[name]
                    if suit(card) != first_suit
                ),
                None,
            )
            if swap is None:
                continue  # only one suit available: that is a straight flush, not a straight
            chosen[swap[0]] = swap[1]
        yield Candidate(Combination("straight", len(chosen), top), tuple(chosen))


def _straight_flushes(hand: Sequence[str]) -> Iterator[Candidate]:
    seen: set[tuple[int, int]] = set()
    held = set(hand)
    for suit_code in SUITS:

        def available(position: int, suit_code: str = suit_code) -> bool:
            return LINE[position] + suit_code in held

        for low, top in _windows(available, MIN_RUN["straight_flush"]):
            length = top - low + 1
            if (length, top) in seen:
                continue
            seen.add((length, top))
            cards = tuple(LINE[p] + suit_code for p in range(low, top + 1))
            yield Candidate(Combination("straight_flush", length, top), cards)


def _multiples(by_rank: dict[str, list[str]], kind: Kind, per_rank: int) -> Iterator[Candidate]:
    def available(position: int) -> bool:
        return len(by_rank.get(LINE[position], ())) >= per_rank

    for low, top in _windows(available, MIN_RUN[kind]):
        cards = tuple(card for p in range(low, top + 1) for card in by_rank[LINE[p]][:per_rank])
        yield Candidate(Combination(kind, len(cards), top), cards)


def wing_pairs(by_rank: dict[str, list[str]], chain: Collection[str]) -> list[tuple[str, str]]:
    """Every pair a chain may take a wing from: the held cards of each rank outside the chain,
    two by two in display order (a rank of five cards gives two pairs)."""
    pairs: list[tuple[str, str]] = []
    for name, cards in by_rank.items():  # ascending singles order
        if name not in chain:
            pairs += [(cards[index], cards[index + 1]) for index in range(0, len(cards) - 1, 2)]
    return pairs


def _airplanes_with_pairs(by_rank: dict[str, list[str]], hand_size: int) -> Iterator[Candidate]:
    def available(position: int) -> bool:
        return len(by_rank.get(LINE[position], ())) >= 3

    for low, top in _windows(available, MIN_RUN["airplane_pairs"]):
        triples = top - low + 1
        if 5 * triples > hand_size:
            continue
        chain = [LINE[p] for p in range(low, top + 1)]
        wings = wing_pairs(by_rank, chain)
        if len(wings) < triples:
            continue
        body = tuple(card for name in chain for card in by_rank[name][:3])
        combination = Combination("airplane_pairs", 5 * triples, top)
        yield Candidate(combination, body, tuple(wings))
