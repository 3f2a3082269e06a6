"""Card rules of Cancellation Hearts (RULES.md §4) as pure functions over card codes: what may
be led and followed, how a trick resolves (identical cards cancel) and what cards are worth.

Everything a hot path needs about a card is looked up in tables built once at import.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from domain.cards import RANKS, double_deck, standard_deck

DECK: tuple[str, ...] = double_deck()
DECK_SIZE = len(DECK)
QUEEN = "QS"
HEARTS = "H"
ALL_POINTS = 52  # 26 hearts at 1 point and two queens of spades at 13

SUIT_OF: dict[str, str] = {card: card[-1] for card in standard_deck()}
# Rank strength within a suit: 2 lowest (0), A highest (12).
RANK_OF: dict[str, int] = {card: RANKS.index(card[:-1]) for card in standard_deck()}
POINTS_OF: dict[str, int] = {
    card: 13 if card == QUEEN else int(SUIT_OF[card] == HEARTS) for card in standard_deck()
}
# Hands are shown grouped by suit (S, H, D, C), each from 2 up to A.
_SORT_KEY: dict[str, int] = {card: index for index, card in enumerate(standard_deck())}


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=_SORT_KEY.__getitem__))


def points(cards: Iterable[str]) -> int:
    return sum(POINTS_OF[card] for card in cards)


def breaks_hearts(card: str) -> bool:
    return card == QUEEN or SUIT_OF[card] == HEARTS


def leads(hand: Sequence[str], *, first_trick: bool, broken: bool) -> tuple[str, ...]:
    """The cards the leader may lead.

    The opening lead of a hand is neither a heart nor the queen of spades, and no heart is led
    before hearts are broken; a leader holding nothing else may lead anything.
    """
    if first_trick:
        allowed = tuple(card for card in hand if card != QUEEN and SUIT_OF[card] != HEARTS)
    elif not broken:
        allowed = tuple(card for card in hand if SUIT_OF[card] != HEARTS)
    else:
        return tuple(hand)
    return allowed or tuple(hand)


def follows(hand: Sequence[str], led_suit: str) -> tuple[str, ...]:
    """The cards a follower may play: the suit led when held, else anything."""
    same = tuple(card for card in hand if SUIT_OF[card] == led_suit)
    return same or tuple(hand)


def resolve(cards: Sequence[str]) -> tuple[tuple[str, ...], int | None]:
    """Which codes cancelled (each once, in order of play) and the index of the winning card.

    Identical cards cancel each other; the highest uncancelled card of the suit led wins; when
    every card of the suit led is cancelled nobody wins (None).
    """
    counts = Counter(cards)
    cancelled = tuple(dict.fromkeys(card for card in cards if counts[card] > 1))
    led = SUIT_OF[cards[0]]
    best: int | None = None
    best_rank = -1
    for index, card in enumerate(cards):
        if SUIT_OF[card] == led and counts[card] == 1 and RANK_OF[card] > best_rank:
            best, best_rank = index, RANK_OF[card]
    return cancelled, best


def moon_shooter(taken: Sequence[int]) -> int | None:
    """The seat that took every heart and both queens of spades (all 52 points), if any."""
    return next((seat for seat, got in enumerate(taken) if got == ALL_POINTS), None)


def hand_points(
    taken: Sequence[int], shooter: int | None, choice: str | None, moon_points: int
) -> tuple[int, ...]:
    """What a hand adds to each total: points taken, or the moon's subtract/add instead."""
    if shooter is None:
        return tuple(taken)
    if choice == "subtract":
        return tuple(-moon_points if seat == shooter else 0 for seat in range(len(taken)))
    return tuple(0 if seat == shooter else moon_points for seat in range(len(taken)))
