"""One Up One Down scenarios' starting tables and moves, on top of tests/rules/scenario.py."""

from __future__ import annotations

from domain.events import GameStarted, HandDealt, Secret
from domain.variants.one_up_one_down.messages import FirstPlayerDrawn, PlayDown, PlayUp
from tests.rules.scenario import created, given, play_out

VARIANT = "one-up-one-down"


def table(hands, stock=(), first=0, options=None):
    dealt = HandDealt(
        hand=1,
        dealer=0,
        hands=tuple(Secret(owner=s, value=tuple(hand)) for s, hand in enumerate(hands)),
        rest=Secret(owner=None, value=tuple(stock)),
    )
    return given(
        [
            *created(VARIANT, len(hands), options),
            GameStarted(seat_count=len(hands)),
            dealt,
            FirstPlayerDrawn(rounds=(), seat=first),
        ]
    )


def up(card: str) -> PlayUp:
    return PlayUp(card=card)


def down(card: str, declared: str = "3") -> PlayDown:
    return PlayDown(card=card, declared=declared)


def to_act(state) -> tuple[int, ...]:
    return state.rules.to_act(state.table)


HANDS3 = [
    ("8H", "9S", "4D", "JC"),
    ("10C", "6D", "7H", "KS"),
    ("5S", "QD", "AH", "2C"),
]
STOCK = ("3C", "4C", "5C")


def after_eight_up():
    """Seat 0 played 8H face up: target 8, seat 1 must play face down."""
    state, _ = play_out(table(HANDS3, STOCK), [(0, up("8H"))])
    return state


HANDS4 = [
    ("8H", "9S", "4D", "JC"),
    ("10C", "6D", "7H", "KS"),
    ("5S", "QD", "AH", "2C"),
    ("3H", "3D", "QS", "AS"),
]


def four_after_face_down(card: str = "6D", declared: str = "10"):
    state, _ = play_out(table(HANDS4, STOCK), [(0, up("8H")), (1, down(card, declared))])
    return state
