"""The fast simulators (``bots.simulators``) held to the domain side by side: in many random
games, at every position, the true deal played in the simulator by the same moves as the domain
game awaits the same seat, offers the same moves, keeps the same points and ends with the same
scores and values; a world sampled from the seat's view offers the seat the same moves; and the
simulator's rule plays the card the level-2 player plays."""

from __future__ import annotations

import os
from typing import Any

import pytest

from bots.ismcts import Dice
from bots.rule_based.open_hand import card_to_play
from bots.simulators.open_hand import CODES, INDEX, OpenHandPosition, OpenHandSimulator
from domain.aggregate import GameAggregate
from domain.commands import Command, PlayCard
from domain.variants.open_hand.table import OpenHandTable
from projections.views import View
from tests.bots.simulators.side_by_side import play_beside

GAMES = int(os.environ.get("CARDLEDGER_BOT_GAMES", "40")) * 5


def open_hand_position(table: OpenHandTable) -> OpenHandPosition:
    """The simulator's position of a full domain table (every hand known)."""
    return OpenHandPosition(
        hands=[sorted(INDEX[card] for card in hand) for hand in table.hands],
        seated=[seat for seat in range(table.seat_count) if not table.left[seat]],
        points=list(table.points),
        leader=table.plays[0].seat if table.plays else table.leader,
        plays=[(play.seat, INDEX[play.card]) for play in table.plays],
    )


class SideBySide:
    """Watches a domain game and plays each of its moves in the simulator too."""

    def __init__(self, deal: int) -> None:
        self.deal = deal
        self.position: OpenHandPosition | None = None
        self.checked = 0

    def __call__(self, game: GameAggregate, seat: int, seen: View, command: Command) -> None:
        table = game.state.table
        assert isinstance(table, OpenHandTable) and isinstance(command, PlayCard)
        position = self.position = self.position or open_hand_position(table)
        offered = sorted(c.card for c in seen.legal_commands if isinstance(c, PlayCard))
        assert position.to_move() == seat
        assert sorted(CODES[move] for move in position.moves()) == offered
        assert position.points == list(table.points)
        assert CODES[position.rule()] == card_to_play(seen)
        simulator = OpenHandSimulator()
        world = simulator.worlds(seen).sample(Dice(self.deal * 1000 + self.checked))
        assert world.to_move() == seat and world.moves() == position.moves()
        assert simulator.command(seen, INDEX[command.card]) == command
        position.play(INDEX[command.card])
        self.checked += 1


@pytest.mark.parametrize("options", [{}, {"first_leader": "high_card"}])
def test_open_hand_simulator_plays_as_the_domain(options: dict[str, Any]) -> None:
    checked = play_beside(
        "open-hand", range(GAMES), options, SideBySide, lambda position: position.points
    )
    assert checked > GAMES * 10
