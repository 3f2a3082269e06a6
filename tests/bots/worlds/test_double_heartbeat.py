"""Double Heartbeat worlds beyond the seat's view: the real table in every field the seat can
work out, the double deck dealt exactly once over hands, buried pile and discards, and the
buried cards the dealer's own."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from bots.contract import Random, bot_draw
from bots.table import bot_seed, new_game, play_out
from bots.worlds.double_heartbeat import DoubleHeartbeatWorld
from domain.aggregate import GameAggregate
from domain.cards import double_deck
from domain.commands import Command, Leave
from domain.fairness import Draw
from domain.variants.double_heartbeat.table import DoubleHeartbeatTable
from projections.views import View

VARIANT = "double-heartbeat"
HIDDEN = {"hands", "buried", "tricks"}
"""The fields a world draws (the tricks won so far this hand are in no view, and unscored)."""


class Leaver:
    """Plays at random, and leaves the table at its first turn from ``version`` on."""

    def __init__(self, version: int) -> None:
        self.version = version

    def choose(self, view: View, draw: Draw) -> Command:
        return Leave() if view.version >= self.version else Random().choose(view, draw)


def fields(table: DoubleHeartbeatTable) -> dict[str, Any]:
    plain = msgspec.to_builtins(table)
    assert isinstance(plain, dict)
    return {name: value for name, value in plain.items() if name not in HIDDEN}


def test_a_world_is_the_real_table_but_for_the_cards_the_seat_cannot_see() -> None:
    sampler = DoubleHeartbeatWorld()
    seen = Counter[str]()

    def check(game: GameAggregate, seat: int, view: View, command: Any) -> None:
        real = game.state.table
        world = sampler.sample(view, bot_draw(b"\x03" * 32, view.game_id, seat, view.version))
        table = world.table
        assert isinstance(real, DoubleHeartbeatTable) and isinstance(table, DoubleHeartbeatTable)
        assert fields(table) == fields(real)
        assert Counter(table.hands[seat]) == Counter(real.hands[seat])
        assert [len(hand) for hand in table.hands] == [len(hand) for hand in real.hands]
        cards = Counter(table.discards) + Counter(table.buried)
        for hand in table.hands:
            cards += Counter(hand)
        assert cards == Counter(double_deck()), "the double deck, every card dealt once"
        assert len(table.buried) == len(real.buried)
        if seat == real.dealer:
            assert Counter(table.buried) == Counter(real.buried), "the dealer knows its pile"
        cases = {
            "dealer": seat == real.dealer and bool(real.buried),
            "other": seat != real.dealer and bool(real.buried),
            "bonus": any(real.bonuses),
            "allied": any(ally is not None for ally in real.allies),
            "settled": bool(real.results) and any(real.bonuses),
            "left": any(real.left),
        }
        seen.update(case for case, holds in cases.items() if holds)

    for deal, seats in enumerate((3, 5, 6, 4)):
        game = new_game(VARIANT, seats, deal, {"hands": 2})
        players: list[Any] = [Random()] * seats
        if seats > 4:
            players[1] = Leaver(version=60)
        seeds = [bot_seed(VARIANT, deal, seat) for seat in range(seats)]
        play_out(game, players, seeds, watch=check)
    assert all(
        seen[case] > 20 for case in ("dealer", "other", "bonus", "allied", "settled", "left")
    ), seen
