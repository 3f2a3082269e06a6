"""The peeking searches of ``cardledger duel --peek`` decide on the real game: every world the
flat search is given is the game's own state at the view's version, and every world Open Hand's
tree search samples holds the real hands."""

from __future__ import annotations

from typing import Any

from bots.duel import play_deal
from bots.ismcts import Dice, TreeSearch
from bots.levels import player
from bots.simulators.heartbeat import INDEX as HEARTBEAT_INDEX
from bots.simulators.open_hand import INDEX
from bots.table import START, seat_view
from domain.fairness import Draw
from domain.game_state import GameState
from domain.variants.heartbeat.view import HeartbeatView
from projections.views import View
from service.tools.duels.peeking import (
    RealHands,
    RealHeartbeatHands,
    Seeing,
    peeking,
)


def test_the_peeking_search_is_given_the_real_game_at_each_decision() -> None:
    strong, world = peeking("heartbeat", 3, algorithm=2)  # algorithm 2 searches flat
    given: list[tuple[Any, GameState]] = []
    sample = world.sample

    def watched(view: View, draw: Draw) -> GameState:
        state = sample(view, draw)
        assert world.game is not None
        given.append((world.game.state, state))
        return state

    world.sample = watched  # type: ignore[method-assign]
    play_deal("heartbeat", 4, strong, player("heartbeat", 2), deal=5, dealt=world.dealt)
    assert given and all(real is state for real, state in given)


def test_open_hands_peeking_tree_search_deals_its_worlds_the_real_hands() -> None:
    strong, world = peeking("open-hand", 3)
    assert isinstance(strong, TreeSearch) and isinstance(strong.simulator, Seeing)
    hands: list[tuple[list[list[int]], list[list[int]]]] = []
    simulator = strong.simulator

    def worlds(view: View) -> RealHands:
        found = Seeing.worlds(simulator, view)
        assert isinstance(found, RealHands) and world.game is not None
        real = [
            sorted(INDEX[card] for card in seat_view(world.game, seat, START).hand or ())
            for seat in range(view.seat_count)
        ]
        hands.append((found.sample(Dice(7)).hands, real))
        return found

    simulator.worlds = worlds  # type: ignore[method-assign]
    play_deal("open-hand", 4, strong, player("open-hand", 2), deal=5, dealt=world.dealt)
    assert hands and all(sampled == real for sampled, real in hands)
    assert all(hand for hand in hands[0][1])  # every seat holds cards at the first decision


def test_heartbeats_peeking_tree_search_deals_its_worlds_the_real_hands() -> None:
    strong, world = peeking("heartbeat", 3)
    assert isinstance(strong, TreeSearch) and isinstance(strong.simulator, Seeing)
    simulator = strong.simulator
    compared = 0

    def worlds(view: View) -> RealHeartbeatHands:
        nonlocal compared
        found = Seeing.worlds(simulator, view)
        assert isinstance(found, RealHeartbeatHands) and world.game is not None
        sampled = found.sample(Dice(7)).hands
        for seat in range(view.seat_count):
            seen = seat_view(world.game, seat, START)
            assert isinstance(seen.table, HeartbeatView)
            chosen = seen.table.choices[seat]
            real = [*(seen.hand or ()), *([chosen] if chosen else [])]
            assert sampled[seat] == sorted(HEARTBEAT_INDEX[card] for card in real)
            compared += 1
        return found

    simulator.worlds = worlds  # type: ignore[method-assign]
    play_deal("heartbeat", 4, strong, player("heartbeat", 2), deal=5, dealt=world.dealt)
    assert compared > 0
