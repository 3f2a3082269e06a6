"""A search that sees every hidden card, for ``cardledger duel --peek`` only: it measures what
hidden information costs the search levels (the same search over the one real world, against
the same opponents on the same deals), never a bot anyone is seated with. It lives with the
tools, not in ``bots``, because it reads the real game: the audit would fail every move of it.

Open Hand peeks with its levels' own tree search (algorithm 3 on: the rule at the other seats,
in the tree and in playouts), its worlds the real hands; the other variants with the flat
search (``bots.search``) over the real game state, algorithm 2's budget for the level.
"""

from __future__ import annotations

from bots.contract import ALGORITHM, Player
from bots.ismcts import Dice, TreeSearch
from bots.levels import SEARCH_BUDGETS, TREES, UnknownLevel
from bots.rule_based import RULE_BASED
from bots.search import Search
from bots.simulators.open_hand import INDEX, OpenHandPosition, OpenHandSimulator, OpenHandWorlds
from bots.table import START, seat_view
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


class RealHands(OpenHandWorlds):
    """Open Hand's worlds of one view, each the real deal: every seat's hand as its own view
    shows it."""

    def __init__(self, view: View, game: GameAggregate) -> None:
        super().__init__(view)
        self.hands = [
            sorted(INDEX[card] for card in seat_view(game, seat, START).hand or ())
            for seat in range(view.seat_count)
        ]

    def sample(self, dice: Dice) -> OpenHandPosition:
        position = super().sample(dice)
        position.hands = [hand[:] for hand in self.hands]
        return position


class SeeingOpenHand(OpenHandSimulator):
    """Open Hand's simulator whose worlds are the real game's (told by ``real``)."""

    def __init__(self, real: RealGame) -> None:
        self.real = real

    def worlds(self, view: View) -> OpenHandWorlds:
        assert self.real.game is not None and self.real.game.version == view.version
        return RealHands(view, self.real.game)


def peeking(variant: str, level: int) -> tuple[Player, RealGame]:
    """Level ``level``'s search over the real game instead of sampled worlds (Open Hand: its
    tree search with the level's iterations; the others: the flat search with algorithm 2's
    rollouts and horizon, the rule standing unless clearly beaten); tell the returned world of
    each game before it is played."""
    budget = SEARCH_BUDGETS.get(variant)
    if budget is None or variant not in RULE_BASED or level < 3:
        raise UnknownLevel(f"{variant} has no search of level {level} to peek with")
    world = RealGame()
    if variant == "open-hand":
        iterations = TREES[ALGORITHM][variant].iterations << (level - 3)
        return TreeSearch(SeeingOpenHand(world), iterations=iterations), world
    search = Search(
        world,
        rollouts=budget.rollouts << (level - 3),
        horizon=budget.horizon,
        prior=RULE_BASED[variant](),
        capped=True,
    )
    return search, world
