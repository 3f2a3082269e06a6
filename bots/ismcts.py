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
from typing import Protocol

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

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class Node:
    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


class TreeSearch:
    """A search level: ``iterations`` iterations a decision, on ``simulator``."""

    def __init__(self, simulator: Simulator, *, iterations: int) -> None:
        self.simulator = simulator
        self.iterations = iterations

    def choose(self, view: View, draw: Draw) -> Command:
        seat = view.seat
        assert seat is not None, "a bot decides for a seat"
        dice = Dice(int.from_bytes(draw.take(8), "big"))
        worlds = self.simulator.worlds(view)
        offered = worlds.sample(dice).moves()
        if len(offered) == 1:
            return self.simulator.command(view, offered[0])
        root = Node()
        for _ in range(self.iterations):
            iterate(root, worlds.sample(dice), seat)
        best = max(offered, key=lambda move: _visits(root, move))
        return self.simulator.command(view, best)


def _visits(root: Node, move: int) -> tuple[int, float]:
    child = root.children.get(move)
    return (0, 0.0) if child is None else (child.visits, child.reward)


def iterate(root: Node, position: Position, me: int) -> None:
    """One iteration on one sampled world: select, expand, play out by the rule, credit ``me``.
    The other seats play by the rule in the tree too: their moves only lead to the node where
    ``me`` moves next (a world's hidden cards decide which)."""
    path: list[Node] = []  # the nodes ``me`` moved into
    node = root
    seat = position.to_move()
    while seat >= 0:
        if seat != me:
            move = position.rule()
            found = node.children.get(move)
            if found is None:
                found = node.children[move] = Node()
            node = found
            position.play(move)
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
        seat = position.to_move()
    while position.to_move() >= 0:
        position.play(position.rule())
    reward = position.values()[me]
    for visited in path:
        visited.visits += 1
        visited.reward += reward
