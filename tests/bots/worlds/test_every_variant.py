"""Worlds a seat cannot tell from the real game: at every position of many games, a sampled
world seen from the seat is the view the seat has, and the cards it hides are each dealt once."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import msgspec
import pytest

from bots.contract import Random, bot_draw
from bots.table import bot_seed, new_game, play_out
from bots.worlds import worlds
from domain.aggregate import GameAggregate
from domain.perspective import FULL, Perspective
from domain.variants import VARIANTS
from projections.views import View, view

GAMES = int(os.environ.get("CARDLEDGER_BOT_GAMES", "40")) // 2
SAME = ("hand", "hand_sizes", "to_act", "legal_commands", "choice_forms", "scores", "table")
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "open-hand": [{}, {"first_leader": "high_card"}],
    "heartbeat": [{}, {"reveal_shows": "rank", "tempo_deck": 8}, {"jokers": "removed"}],
    "double-heartbeat": [
        {},
        {"dealer_exchange": "none", "hands": 1},
        {"betrayal": "forbidden", "hands": 1},
    ],
    "cancellation-hearts": [{"target": 50}, {"target": 50, "moon": "add"}],
    "one-up-one-down": [{}, {"max_plays": 60, "challenge_seconds": 0}],
}
COPIES: dict[str, int] = {"double-heartbeat": 2, "cancellation-hearts": 2}
"""How often a card is in the deck, where it is more than once."""


def seen_by(state: Any, seat: int) -> View:
    return view(state, version=0, chain_head="", perspective=Perspective(seat=seat))


def cards_of(state: Any) -> Counter[str]:
    full = view(state, version=0, chain_head="", perspective=FULL)
    return Counter(card for hand in full.hands for card in hand or ())


@pytest.mark.parametrize("variant", sorted(worlds()))
def test_a_world_seen_from_the_seat_is_the_seats_own_view(variant: str) -> None:
    sampler = worlds()[variant]()
    checked = 0

    def check(game: GameAggregate, seat: int, seen: View, command: Any) -> None:
        nonlocal checked
        draw = bot_draw(b"\x07" * 32, seen.game_id, seat, seen.version)
        world = sampler.sample(seen, draw)
        again = seen_by(world, seat)
        for field in SAME:
            assert msgspec.to_builtins(getattr(again, field)) == msgspec.to_builtins(
                getattr(seen, field)
            ), (field, seen.version)
        held = cards_of(world)
        assert max(held.values(), default=1) <= COPIES.get(variant, 1), "no card dealt too often"
        assert sum(held.values()) == sum(seen.hand_sizes), "as many cards in hands as really"
        checked += 1

    rules = VARIANTS[variant]
    for deal in range(GAMES):
        between = min(rules.min_seats + 1, rules.max_seats)
        seats = (rules.min_seats, rules.max_seats, between)[deal % 3]
        options = OPTIONS[variant][deal % len(OPTIONS[variant])]
        game = new_game(variant, seats, deal, options)
        seeds = [bot_seed(variant, deal, seat) for seat in range(seats)]
        play_out(game, [Random()] * seats, seeds, watch=check)
    assert checked > GAMES * 5
