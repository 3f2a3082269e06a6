"""Card codes, decks and the rank orders the variants share.

A card is its code string: rank + suit (``10H``, ``QS``) or a joker (``BJ``, ``RJ``).
Hands are tuples of codes; a double deck makes them multisets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from domain.errors import Failure, invalid

REFUSALS: Mapping[str, Failure] = {"unknown_card": Failure.INVALID}  # check_card_code

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JOKERS: tuple[str, ...] = ("BJ", "RJ")

# Singles order of the climbing games: 3 lowest, 2 highest.
CLIMBING_ORDER: tuple[str, ...] = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
CLIMBING_INDEX: Mapping[str, int] = {name: index for index, name in enumerate(CLIMBING_ORDER)}

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

_ALL_CODES = frozenset([r + s for r in RANKS for s in SUITS] + list(JOKERS))


def standard_deck(*, jokers: bool = False) -> tuple[str, ...]:
    """One deck in a fixed canonical order: suits S, H, D, C, ranks 2..A, then jokers."""
    cards = tuple(rank + suit for suit in SUITS for rank in RANKS)
    return cards + JOKERS if jokers else cards


def double_deck() -> tuple[str, ...]:
    """Two decks without jokers, canonical order (every code twice, consecutively)."""
    return tuple(card for card in standard_deck() for _ in range(2))


def is_card_code(code: str) -> bool:
    return code in _ALL_CODES


def check_card_code(code: str) -> str:
    if not is_card_code(code):
        raise invalid("unknown_card", f"{code!r} is not a card code (e.g. 10H, QS, AD, BJ)")
    return code


def rank(card: str) -> str:
    return card if card in JOKERS else card[:-1]


def suit(card: str) -> str | None:
    return None if card in JOKERS else card[-1]


def without(hand: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...]:
    """The hand minus the given cards (as a multiset); the caller has checked they are held."""
    remaining = list(hand)
    for card in cards:
        remaining.remove(card)
    return tuple(remaining)


def holds(hand: tuple[str, ...], cards: Iterable[str]) -> bool:
    """Whether the hand contains all the cards, counting duplicates."""
    needed = Counter(cards)
    have = Counter(hand)
    return all(have[card] >= count for card, count in needed.items())


def describe(card: str) -> str:
    """Human form of a card code, e.g. ``10♠``."""
    if card in JOKERS:
        return "small joker" if card == "BJ" else "big joker"
    return rank(card) + SUIT_SYMBOLS[card[-1]]
