"""Cancellation Hearts scenarios' starting tables and moves, on top of tests/rules/scenario.py."""

from __future__ import annotations

from typing import Any

from domain.commands import PlayCard
from domain.events import Event, GameStarted, HandDealt, Secret
from domain.game_state import GameState
from domain.variants.cancellation_hearts import CancellationHearts
from domain.variants.cancellation_hearts.messages import PassesDelivered
from tests.rules.scenario import created, given, play_out

VARIANT = "cancellation-hearts"
RULES = CancellationHearts()


def dealt(
    hands: list[tuple[str, ...]], kitty: tuple[str, ...] = (), *, hand: int = 1, dealer: int = 0
) -> HandDealt:
    return HandDealt(
        hand=hand,
        dealer=dealer,
        hands=tuple(Secret(owner=s, value=cards) for s, cards in enumerate(hands)),
        rest=Secret(owner=None, value=kitty),
    )


def begin(
    hands: list[tuple[str, ...]],
    kitty: tuple[str, ...] = (),
    options: dict[str, Any] | None = None,
    *,
    hand: int = 1,
    history: tuple[Event, ...] = (),
) -> list[Event]:
    """A game whose deal of hand ``hand`` is given; ``history`` goes before that deal."""
    count = len(hands)
    return [
        *created(VARIANT, count, options),
        GameStarted(seat_count=count),
        *history,
        dealt(hands, kitty, hand=hand, dealer=(hand - 1) % count),
    ]


def passing(hands: list[tuple[str, ...]], **kwargs: Any) -> GameState:
    return given(begin(hands, **kwargs))


def playing(hands: list[tuple[str, ...]], kitty: tuple[str, ...] = (), **kwargs: Any) -> GameState:
    """Play about to start with exactly these hands (their pass is already done: a delivery of
    nothing, so the hands given are the hands played)."""
    events = begin(hands, kitty, **kwargs)
    count = len(hands)
    hand = kwargs.get("hand", 1)
    nothing = tuple(Secret(owner=s, value=()) for s in range(count))
    delivered = PassesDelivered(
        hand=hand, direction="left", senders=(None,) * count, received=nothing
    )
    return given([*events, delivered])


def play(card: str) -> PlayCard:
    return PlayCard(card=card)


def plays(state: GameState, *moves: tuple[int, str]) -> tuple[GameState, list[Event]]:
    return play_out(state, [(seat, play(card)) for seat, card in moves])


def of_type(events: list[Event], kind: type[Event]) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


def to_act(state: GameState) -> tuple[int, ...]:
    return RULES.to_act(state.table)


SIX = [
    ("2S", "3S", "4S"),
    ("2H", "3H", "4H"),
    ("2D", "3D", "4D"),
    ("2C", "3C", "4C"),
    ("5S", "6S", "7S"),
    ("5D", "6D", "7D"),
]
