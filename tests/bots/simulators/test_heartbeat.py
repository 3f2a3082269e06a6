"""Heartbeat's fast simulator (``bots.simulators.heartbeat``) held to the domain side by side: in
many random games under every option, at every decision, the true table played in the simulator
by the same moves as the domain game awaits the same seat, offers a card of every value the
domain offers and no other, keeps the same chips and ends with the same scores and values; the
simulator's rule rates best the cards the level-2 player does, and plays one of them; and a world
sampled from the seat's view offers the seat the same moves."""

from __future__ import annotations

import os
from typing import Any

import msgspec
import pytest

from bots.ismcts import Dice
from bots.rule_based.heartbeat import SAME, view_worths
from bots.simulators.heartbeat import (
    INDEX,
    VALUE,
    HeartbeatPosition,
    HeartbeatSimulator,
)
from domain.aggregate import GameAggregate
from domain.commands import Command
from domain.variants.heartbeat.messages import ChooseCard, RevealCard
from domain.variants.heartbeat.table import HeartbeatTable, card_value
from domain.variants.heartbeat.view import HeartbeatView
from projections.views import View
from tests.bots.simulators.side_by_side import play_beside

GAMES = int(os.environ.get("CARDLEDGER_BOT_GAMES", "40")) * 2
OPTIONS: list[dict[str, Any]] = [
    {},
    {"tempo_deck": 0},
    {"tempo_deck": 8, "reveal_shows": "rank"},
    {"jokers": "removed", "double_rule": "others_one"},
]


def heartbeat_position(table: HeartbeatTable) -> HeartbeatPosition:
    """The simulator's position of a full domain table (every hand and choice known)."""
    flipped = [record.tempo for record in table.rounds]
    position = HeartbeatPosition(
        table.options,
        hands=[sorted(INDEX[card] for card in hand) for hand in table.hands],
        present=table.present(),
        chips=list(table.chips),
        flipped=[*flipped, table.tempo] if table.tempo is not None else flipped,
        deck=list(table.tempo_deck),
        scored=len(table.rounds),
        first=0,
        dice=Dice(0),
        played=[(r.round, p.seat, INDEX[p.card]) for r in table.rounds for p in r.plays],
        reveals=[(r.round, r.seat, INDEX[r.card], r.rank) for r in table.reveals],
        shown=[None if card is None else INDEX[card] for card in table.shown],
    )
    position.chosen = [None if card is None else INDEX[card] for card in table.chosen]
    return position


class SideBySide:
    """Watches a domain game and plays each of its moves in the simulator too."""

    def __init__(self, deal: int) -> None:
        self.deal = deal
        self.position: HeartbeatPosition | None = None
        self.checked = 0

    def __call__(self, game: GameAggregate, seat: int, seen: View, command: Command) -> None:
        table = game.state.table
        assert isinstance(table, HeartbeatTable) and isinstance(command, RevealCard | ChooseCard)
        position = self.position = self.position or heartbeat_position(table)
        offered = {c.card for c in seen.legal_commands if isinstance(c, RevealCard | ChooseCard)}
        assert position.to_move() == seat
        moves = position.moves()
        assert {VALUE[move] for move in moves} == {card_value(card) for card in offered}
        assert len({VALUE[move] for move in moves}) == len(moves)
        simulator = HeartbeatSimulator()
        assert {msgspec_key(simulator.command(seen, move)) for move in moves} <= {
            msgspec_key(c) for c in seen.legal_commands
        }
        assert position.chips == list(table.chips)
        best = rule_best(seen)
        assert {VALUE[move] for move in position.ruled()} == best
        assert VALUE[position.rule()] in best
        world = simulator.worlds(seen).sample(Dice(self.deal * 1000 + self.checked))
        assert world.to_move() == seat and world.moves() == moves
        assert simulator.command(seen, INDEX[command.card]) == command
        position.play(INDEX[command.card])
        self.checked += 1


def msgspec_key(command: Command) -> bytes:
    return msgspec.json.encode(command)


def rule_best(seen: View) -> set[int]:
    """The values of the cards the level-2 player rates best (and draws one of) in ``seen``."""
    table = seen.table
    assert isinstance(table, HeartbeatView)
    worth = view_worths(seen, table)
    offered = {
        card_value(c.card) for c in seen.legal_commands if isinstance(c, RevealCard | ChooseCard)
    }
    top = max(worth[value] for value in offered)
    return {value for value in offered if worth[value] > top - SAME}


@pytest.mark.parametrize("options", OPTIONS)
def test_heartbeat_simulator_plays_as_the_domain(options: dict[str, Any]) -> None:
    checked = play_beside(
        "heartbeat", range(GAMES), options, SideBySide, lambda position: position.chips
    )
    assert checked > GAMES * 6
