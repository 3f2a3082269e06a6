"""The peeking searches of ``cardledger duel --peek`` decide on the real game: every world the
flat search is given, and every world Open Hand's and Heartbeat's tree searches sample, holds
every seat's real hand (where an honest sample guesses)."""

from __future__ import annotations

from bots.duel import play_deal
from bots.ismcts import Dice, TreeSearch
from bots.levels import player
from bots.simulators.heartbeat import INDEX as HEARTBEAT_INDEX
from bots.simulators.open_hand import INDEX
from bots.table import START, seat_view
from bots.worlds import worlds
from domain.fairness import Draw
from domain.game_state import GameState
from domain.perspective import Perspective
from domain.variants.heartbeat.view import HeartbeatView
from projections import views
from projections.views import View
from service.tools.duels.peeking import (
    RealHeartbeatHands,
    RealOpenHandHands,
    Seeing,
    peeking,
)


def hands_in(state: GameState, version: int) -> list[tuple[str, ...] | None]:
    """Every seat's hand as the seat itself would see it in ``state``."""
    return [
        views.view(state, version=version, chain_head="", perspective=Perspective(seat=seat)).hand
        for seat in range(state.seat_count)
    ]


def test_the_flat_peeking_search_is_given_every_seats_real_hand_where_a_sample_guesses() -> None:
    strong, world = peeking("heartbeat", 3, algorithm=2)  # algorithm 2 searches flat
    honest = worlds()["heartbeat"]()
    decisions = guessed_wrong = 0
    sample = world.sample

    def watched(view: View, draw: Draw) -> GameState:
        nonlocal decisions, guessed_wrong
        state = sample(view, draw)
        assert world.game is not None
        real = [seat_view(world.game, s, START).hand for s in range(view.seat_count)]
        assert hands_in(state, view.version) == real
        guessed = honest.sample(view, Draw(b"honest", b"test"))
        guessed_wrong += hands_in(guessed, view.version) != real
        decisions += 1
        return state

    world.sample = watched  # type: ignore[method-assign]
    play_deal("heartbeat", 4, strong, player("heartbeat", 2), deal=5, dealt=world.dealt)
    assert decisions > 0 and guessed_wrong > 0  # the honest worlds guess; the peeker's do not


def test_open_hands_peeking_tree_search_deals_its_worlds_the_real_hands() -> None:
    strong, world = peeking("open-hand", 3)
    assert isinstance(strong, TreeSearch) and isinstance(strong.simulator, Seeing)
    hands: list[tuple[list[list[int]], list[list[int]]]] = []
    simulator = strong.simulator

    def worlds(view: View) -> RealOpenHandHands:
        found = Seeing.worlds(simulator, view)
        assert isinstance(found, RealOpenHandHands) and world.game is not None
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
