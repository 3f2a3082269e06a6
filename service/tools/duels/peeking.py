"""A search that sees every hidden card, for ``cardledger duel --peek`` only: it measures what
hidden information costs the search levels (the same search over the one real world, against
the same opponents on the same deals), never a bot anyone is seated with. It lives with the
tools, not in ``bots``, because it reads the real game: the audit would fail every move of it.

A level peeks with its algorithm's own search: the tree search where the algorithm has one for
the variant (Open Hand from algorithm 3, Heartbeat from 4: the rule at the other seats, in the
tree and in playouts), its worlds the real hands; otherwise the flat search (``bots.search``)
over the real game state, with algorithm 2's budget for the level.
"""

from __future__ import annotations

from collections.abc import Callable

from bots.contract import ALGORITHM, Player
from bots.ismcts import Dice, Simulator, TreeSearch, Worlds
from bots.levels import SEARCH_BUDGETS, TREES, UnknownLevel
from bots.rule_based import RULE_BASED
from bots.search import Search
from bots.simulators.heartbeat import INDEX as HEARTBEAT_INDEX
from bots.simulators.heartbeat import HeartbeatPosition, HeartbeatSimulator, HeartbeatWorlds
from bots.simulators.open_hand import INDEX, OpenHandPosition, OpenHandSimulator, OpenHandWorlds
from bots.table import START, seat_view
from domain.aggregate import GameAggregate
from domain.commands import Command
from domain.fairness import Draw
from domain.game_state import GameState
from domain.variants.heartbeat.view import HeartbeatView
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


class RealOpenHandHands(OpenHandWorlds):
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


class RealHeartbeatHands(HeartbeatWorlds):
    """Heartbeat's worlds of one view with every seat's real hand (a seat that has chosen this
    round holds its choice again, as in every world: it chooses by the rule after the searching
    seat) and its real card for a reveal shown by rank; the face-down tempo cards stay shuffled."""

    def __init__(self, view: View, game: GameAggregate) -> None:
        super().__init__(view)
        self.hands: list[list[int]] = []
        self.real_shown: dict[int, int] = {}
        for seat in range(view.seat_count):
            seen = seat_view(game, seat, START)
            table = seen.table
            assert isinstance(table, HeartbeatView)
            held = [*(seen.hand or ()), *([table.choices[seat]] if table.choices[seat] else [])]
            self.hands.append(sorted(HEARTBEAT_INDEX[card] for card in held if card))
            for shown in table.shown:
                if shown.round == table.round and shown.seat == seat and shown.card:
                    self.real_shown[seat] = HEARTBEAT_INDEX[shown.card]

    def sample(self, dice: Dice) -> HeartbeatPosition:
        position = super().sample(dice)
        for seat, hand in enumerate(self.hands):
            if seat != self.me:
                position.hands[seat] = hand[:]
        for seat, card in self.real_shown.items():
            position.shown[seat] = card
        return position


class Seeing:
    """A variant's simulator whose worlds hold the real game's hands (``real`` is told of each
    game): ``inner`` maps moves and budgets as for the honest search."""

    def __init__(
        self,
        inner: Simulator,
        real_worlds: Callable[[View, GameAggregate], Worlds],
        real: RealGame,
    ) -> None:
        self.inner, self.real_worlds, self.real = inner, real_worlds, real

    def worlds(self, view: View) -> Worlds:
        assert self.real.game is not None and self.real.game.version == view.version
        return self.real_worlds(view, self.real.game)

    def command(self, view: View, move: int) -> Command:
        return self.inner.command(view, move)

    def budget(self, view: View, iterations: int) -> int:
        return self.inner.budget(view, iterations)


SEEING: dict[str, tuple[Callable[[], Simulator], Callable[[View, GameAggregate], Worlds]]] = {
    "open-hand": (OpenHandSimulator, RealOpenHandHands),
    "heartbeat": (HeartbeatSimulator, RealHeartbeatHands),
}


def peeking(variant: str, level: int, algorithm: int = ALGORITHM) -> tuple[Player, RealGame]:
    """Level ``level``'s search in ``algorithm`` over the real game instead of sampled worlds:
    its tree search where the algorithm has one for the variant, with the level's iterations;
    otherwise the flat search with algorithm 2's rollouts and horizon, the rule standing unless
    clearly beaten. Tell the returned world of each game before it is played."""
    budget = SEARCH_BUDGETS.get(variant)
    if budget is None or variant not in RULE_BASED or level < 3:
        raise UnknownLevel(f"{variant} has no search of level {level} to peek with")
    world = RealGame()
    tree = TREES.get(algorithm, {}).get(variant)
    if tree is not None:
        inner, real_worlds = SEEING[variant]
        simulator = Seeing(inner(), real_worlds, world)
        iterations = tree.iterations << (level - 3)
        return TreeSearch(simulator, iterations=iterations, prior=tree.prior), world
    search = Search(
        world,
        rollouts=budget.rollouts << (level - 3),
        horizon=budget.horizon,
        prior=RULE_BASED[variant](),
        capped=True,
    )
    return search, world
