"""Double Heartbeat scenarios' starting tables and moves, on top of tests/rules/scenario.py."""

from __future__ import annotations

from typing import Any

from domain.events import GameStarted, HandDealt, Secret
from domain.game_state import GameState
from domain.perspective import PUBLIC, Perspective
from domain.variants.double_heartbeat import DoubleHeartbeat
from domain.variants.double_heartbeat.messages import PassTurn, PlayCombination
from tests.rules.scenario import created, given

V = "double-heartbeat"
PASS = PassTurn()
RULES = DoubleHeartbeat()


def deal(hands: list[str], *, dealer: int = 0, options: dict[str, Any] | None = None) -> GameState:
    """A game whose first hand is dealt as given (one hand per match unless said otherwise)."""
    dealt = HandDealt(
        hand=1,
        dealer=dealer,
        hands=tuple(Secret(owner=s, value=tuple(h.split())) for s, h in enumerate(hands)),
        rest=Secret(owner=None, value=()),
    )
    setup = created(V, len(hands), {"hands": 1, **(options or {})})
    return given([*setup, GameStarted(seat_count=len(hands)), dealt])


def play(cards: str, combination: str | None = None) -> PlayCombination:
    return PlayCombination(cards=cards.split(), combination=combination)  # type: ignore[arg-type]


def view(state: GameState, perspective: Perspective = PUBLIC) -> Any:
    return RULES.public_table(state.table, perspective)


def to_act(state: GameState) -> tuple[int, ...]:
    return RULES.to_act(state.table)


WON_FIRST_TRICK = [(0, play("3S")), (1, PASS), (2, PASS), (3, PASS)]

BURY_HANDS = ["3S 4S 5S 6S KD", "7S 8S", "9S 10S"]

LEAVE_HANDS = ["3S 4S 5S", "6S 7S", "8S 9S", "10S JS"]
