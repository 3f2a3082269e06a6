"""How much a Cancellation Hearts card is worth getting rid of, for passing and for playing.

A card's danger is the points it may cost its holder later in the hand: the queen of spades
above all, the ace and king of spades while a queen is out (a queen falls on them), high hearts,
then any high card, the more so in a short suit (playing it out of a short suit leaves a void to
throw points into).
"""

from __future__ import annotations

from collections import Counter

from domain.variants.cancellation_hearts.tricks import QUEEN, RANK_OF, SUIT_OF

TOP_RANK = RANK_OF["AS"]
QUEEN_DANGER = 10.0
QUEEN_GUARDS = ("AS", "KS")
GUARD_DANGER = 4.0  # an ace or king of spades while a queen of spades is out
HEART_DANGER = 1.0
HIGH_CARD_DANGER = 3.0  # an ace; lower ranks less, the square of the rank's height
SHORT_SUIT = 2  # cards or fewer in a suit: playing one nears a void
SHORT_SUIT_DANGER = 0.5
LOW_SPADES_HIDE_QUEEN = 5  # with this many spades below the queen, she can wait for a chance


def dangers(hand: tuple[str, ...], queens_out: int) -> dict[str, float]:
    """What holding each card of ``hand`` may cost later (in points, roughly)."""
    suits = Counter(SUIT_OF[held] for held in hand)
    low_spades = sum(1 for held in hand if SUIT_OF[held] == "S" and RANK_OF[held] < RANK_OF[QUEEN])
    found: dict[str, float] = {}
    for card in hand:
        suit = SUIT_OF[card]
        height = RANK_OF[card] / TOP_RANK
        value = HIGH_CARD_DANGER * height * height
        if card == QUEEN:
            value += QUEEN_DANGER / (2.0 if low_spades >= LOW_SPADES_HIDE_QUEEN else 1.0)
        elif card in QUEEN_GUARDS and queens_out > 0:
            value += GUARD_DANGER
        elif suit == "H":
            value += HEART_DANGER * (0.5 + height)
        if suits[suit] <= SHORT_SUIT:
            value += SHORT_SUIT_DANGER
        found[card] = value
    return found


def pass_choice(hand: tuple[str, ...], count: int) -> tuple[str, ...]:
    """The ``count`` most dangerous cards of a fresh hand, as the hand lists them (a queen of
    spades passed is one fewer to fear, so every queen counts as out)."""
    danger = dangers(hand, 2)
    ranked = sorted(range(len(hand)), key=lambda index: (-danger[hand[index]], index))
    return tuple(hand[index] for index in sorted(ranked[:count]))
