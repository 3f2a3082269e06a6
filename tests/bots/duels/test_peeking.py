"""The peeking search of ``cardledger duel --peek`` decides on the real game: every world it
is given is the game's own state at the view's version, hidden hands included."""

from __future__ import annotations

from typing import Any

from bots.duel import play_deal
from bots.levels import player
from domain.fairness import Draw
from domain.game_state import GameState
from projections.views import View
from service.tools.peeking import peeking


def test_the_peeking_search_is_given_the_real_game_at_each_decision() -> None:
    strong, world = peeking("heartbeat", 3)
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
