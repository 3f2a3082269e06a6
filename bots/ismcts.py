"""Information-set Monte Carlo tree search over a variant's fast simulator (algorithm 3 on).

One tree of the seat's own moves: an iteration samples a world the seat cannot tell from the
real one (``Worlds.sample``), walks down the tree, choosing the seat's moves by UCB1 with
availability counts (a move is judged only among the iterations where it could be played) and
the other seats' by the variant's level-2 rule, adds one node of the seat's, plays the game to
its end with the rule at every seat and credits the nodes the seat moved into with its value.
So the search is a best answer to players of the rule in the worlds sampled, planning the
seat's later moves as well as this one; the most visited move is played.

Everything runs on plain ints (``bots.simulators``): a domain move costs tens of microseconds,
too many for hundreds of whole games in 50 ms. The budget is counted in iterations and every
draw comes from the bot's own stream (``Dice`` seeded from it), so a decision is reproducible.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

from domain.commands import Command
from domain.fairness import Draw
from projections.views import View

EXPLORATION = 0.7
"""UCB1's exploration weight for values in 0..1."""


class Position(Protocol):
    """A full game state of a simulator, changed in place by ``play``."""

    def to_move(self) -> int:
        """The seat to move, -1 once the game is over."""
        ...

    def moves(self) -> list[int]:
        """The moves of the seat to move."""
        ...

    def play(self, move: int) -> None: ...

    def seen(self) -> int:
        """What every seat saw of the move last played: the key of its edge in the tree (the
        move itself where moves are public; less where they are secret, more where completing
        a round shows the others' secret moves or a chance card)."""
        ...

    def rule(self) -> int:
        """The level-2 rule's move for the seat to move: the rollout policy."""
        ...

    def values(self) -> list[float]:
        """Each seat's value 0..1 at the end: the share of the other seats it places above."""
        ...


class Worlds(Protocol):
    """The worlds of one view: full positions agreeing with everything the seat has seen."""

    def sample(self, dice: Dice) -> Position: ...


class Simulator(Protocol):
    """A variant's fast model: the worlds of a view, and moves mapped back to commands."""

    def worlds(self, view: View) -> Worlds: ...

    def command(self, view: View, move: int) -> Command: ...

    def budget(self, view: View, iterations: int) -> int:
        """The iterations a decision at ``view`` gets, from a level's ``iterations``."""
        ...


class Dice:
    """A small seeded generator (splitmix64) for the many draws of a search: plain integer
    arithmetic, so its draws are the same on every Python; seeded from the bot's stream."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def below(self, bound: int) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return ((z ^ (z >> 31)) * bound) >> 64

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class Node:
    __slots__ = ("available", "children", "reward", "squares", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.squares = 0.0  # of the rewards: their spread, for ``clearly_better``


class TreeSearch:
    """A search level: ``iterations`` iterations a decision (as the simulator's ``budget``
    scales them), on ``simulator``. With ``prior``, the rule's move stands unless the most
    visited one scored clearly better (by more than twice the standard error of the difference
    of their means): a few noisy iterations never overturn a sound rule."""

    def __init__(self, simulator: Simulator, *, iterations: int, prior: bool = False) -> None:
        self.simulator = simulator
        self.iterations = iterations
        self.prior = prior

    def choose(self, view: View, draw: Draw) -> Command:
        seat = view.seat
        assert seat is not None, "a bot decides for a seat"
        dice = Dice(int.from_bytes(draw.take(8), "big"))
        worlds = self.simulator.worlds(view)
        first = worlds.sample(dice)
        offered = first.moves()
        if len(offered) == 1:
            return self.simulator.command(view, offered[0])
        iterations = self.simulator.budget(view, self.iterations)
        if iterations == 0:  # the simulator knows the rule's move cannot be bettered here
            return self.simulator.command(view, first.rule())
        ruled = first.rule() if self.prior else None
        root = Node()
        for _ in range(iterations):
            iterate(root, worlds.sample(dice), seat)
        best = max(offered, key=lambda move: _visits(root, move))
        if ruled is not None and not clearly_better(root, best, ruled):
            best = ruled
        return self.simulator.command(view, best)


PRIOR_VISITS = 4
"""The fewest visits of either move before ``clearly_better`` judges them."""
PRIOR_ERRORS = 2.0
"""How many standard errors of the difference a move must beat the rule's by."""


def clearly_better(root: Node, move: int, than: int) -> bool:
    """Whether ``move``'s mean reward beats ``than``'s by more than ``PRIOR_ERRORS`` standard
    errors of the difference, the rewards' spread taken over both moves' rewards together (a few
    rewards of one move are often all alike, and would make any difference look sure)."""
    a, b = root.children.get(move), root.children.get(than)
    if move == than or a is None or b is None or min(a.visits, b.visits) < PRIOR_VISITS:
        return False
    count = a.visits + b.visits
    mean = (a.reward + b.reward) / count
    variance = max(0.0, (a.squares + b.squares) - count * mean * mean) / (count - 1)
    error = math.sqrt(variance * (1 / a.visits + 1 / b.visits))
    return a.reward / a.visits - b.reward / b.visits > PRIOR_ERRORS * error


def _visits(root: Node, move: int) -> tuple[int, float]:
    child = root.children.get(move)
    return (0, 0.0) if child is None else (child.visits, child.reward)


def iterate(root: Node, position: Position, me: int) -> None:
    """One iteration on one sampled world: select, expand, play out by the rule, credit ``me``.
    The other seats play by the rule in the tree too: their moves only lead to the node where
    ``me`` moves next (a world's hidden cards decide which). Each move leads to the child of
    what it showed (``Position.seen``); ``me``'s own to the child of the move, then of what it
    showed where that was more."""
    path: list[Node] = []  # the nodes ``me`` moved into
    node = root
    seat = position.to_move()
    while seat >= 0:
        if seat != me:
            position.play(position.rule())
            node = _child(node, position.seen())
            seat = position.to_move()
            continue
        legal = position.moves()
        untried = [move for move in legal if move not in node.children]
        if untried:
            ruled = position.rule()
            move = ruled if ruled in untried else untried[0]
            child = Node()
            node.children[move] = child
            for other in legal:
                if other in node.children:
                    node.children[other].available += 1
            position.play(move)
            path.append(child)
            break
        best_move, best_score = legal[0], -1.0
        for move in legal:
            child = node.children[move]
            child.available += 1
        for move in legal:
            child = node.children[move]
            spread = math.log(child.available) / child.visits
            score = child.reward / child.visits + EXPLORATION * math.sqrt(spread)
            if score > best_score:
                best_move, best_score = move, score
        node = node.children[best_move]
        position.play(best_move)
        path.append(node)
        shown = position.seen()
        if shown != best_move:
            node = _child(node, shown)
        seat = position.to_move()
    while position.to_move() >= 0:
        position.play(position.rule())
    reward = position.values()[me]
    for visited in path:
        visited.visits += 1
        visited.reward += reward
        visited.squares += reward * reward


def _child(node: Node, key: int) -> Node:
    found = node.children.get(key)
    if found is None:
        found = node.children[key] = Node()
    return found
