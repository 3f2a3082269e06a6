"""Worlds: full game states a seat cannot tell from the real one, one sampler per variant.

Each sampler reads only the seat's view: the cards it cannot see are those of the deck that it
has not seen anywhere (its hand, the table, every card shown or played), dealt at random to where
they may be, in the numbers the view gives. The future of a world (later deals) comes from a
seed drawn from the bot's own stream.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from bots.search import World
from domain.fairness import Draw
from domain.game_state import GameState, SeatInfo
from projections.views import View


def state_of(view: View, table: Any, draw: Draw) -> GameState:
    """The game around a sampled table: the view's seats and options, a seed of the world's own."""
    return GameState(
        game_id=view.game_id,
        variant=view.variant,
        options=view.options,
        seat_count=view.seat_count,
        creator="",
        seed_commitment="",
        seed=draw.take(32).hex(),
        seats=tuple(
            SeatInfo(player_id=f"p{seat.seat}", name=seat.name, left=seat.left)
            for seat in view.seats
        ),
        status="active",
        table=table,
    )


def unseen(deck: Iterable[str], *seen: Iterable[str]) -> list[str]:
    """The deck without every card seen (as a multiset: a double deck holds each card twice)."""
    left = list(deck)
    for cards in seen:
        for card in cards:
            left.remove(card)
    return left


def deal(pool: list[str], sizes: Mapping[int, int], draw: Draw) -> dict[int, tuple[str, ...]]:
    """``pool`` shuffled and dealt: ``sizes[seat]`` cards to each seat, in seat order."""
    shuffled = list(draw.shuffle(pool))
    dealt: dict[int, tuple[str, ...]] = {}
    for seat, size in sorted(sizes.items()):
        dealt[seat], shuffled = tuple(shuffled[:size]), shuffled[size:]
    return dealt


def worlds() -> Mapping[str, Callable[[], World]]:
    """Variant id -> its sampler (imported here, after ``bots.search``, which they use)."""
    from bots.worlds.cancellation_hearts import CancellationHeartsWorld
    from bots.worlds.double_heartbeat import DoubleHeartbeatWorld
    from bots.worlds.heartbeat import HeartbeatWorld
    from bots.worlds.one_up_one_down import OneUpOneDownWorld
    from bots.worlds.open_hand import OpenHandWorld

    return {
        "open-hand": OpenHandWorld,
        "heartbeat": HeartbeatWorld,
        "double-heartbeat": DoubleHeartbeatWorld,
        "cancellation-hearts": CancellationHeartsWorld,
        "one-up-one-down": OneUpOneDownWorld,
    }
