"""A search that sees every hidden card, for ``cardledger duel --peek`` only: it measures what
hidden information costs the search levels (the same search over the one real world, against
the same opponents on the same deals), never a bot anyone is seated with. It lives with the
tools, not in ``bots``, because it reads the real game: the audit would fail every move of it.
"""

from __future__ import annotations

from bots.contract import Player
from bots.levels import SEARCH_BUDGETS, UnknownLevel
from bots.rule_based import RULE_BASED
from bots.search import Search
from domain.aggregate import GameAggregate
from domain.fairness import Draw
from domain.game_state import GameState
from projections.views import View


class RealGame:
    """A ``World`` that samples nothing: the game being played, hidden cards and all."""

    def __init__(self) -> None:
        self.game: GameAggregate | None = None

    def dealt(self, game: GameAggregate) -> None:
        self.game = game

    def sample(self, view: View, draw: Draw) -> GameState:
        assert self.game is not None and self.game.version == view.version, "the game decided on"
        return self.game.state


def peeking(variant: str, level: int) -> tuple[Player, RealGame]:
    """Level ``level``'s flat search (algorithm 2's budget: its rollouts and horizon, the rule
    standing unless clearly beaten) over the real game instead of sampled worlds; tell the
    returned world of each game before it is played."""
    budget = SEARCH_BUDGETS.get(variant)
    if budget is None or variant not in RULE_BASED or level < 3:
        raise UnknownLevel(f"{variant} has no search of level {level} to peek with")
    world = RealGame()
    search = Search(
        world,
        rollouts=budget.rollouts << (level - 3),
        horizon=budget.horizon,
        prior=RULE_BASED[variant](),
        capped=True,
    )
    return search, world
