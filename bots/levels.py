"""The bots by level, for every variant: which exist and the player of each.

Level 1 is a uniformly random legal command, the same for every variant; level 2 a rule-based
player of the variant's own (``bots.rule_based``); levels 3 to 5 search, each level with twice
the budget of the one below: a tree search on the variant's fast simulator (``bots.ismcts``,
``bots.simulators``) where it has one (Open Hand since algorithm 3, Heartbeat since 4),
otherwise flat Monte Carlo (``bots.search``) over worlds of the variant (``bots.worlds``). Each
algorithm version ever recorded maps to its players here, so an old game's bots can always be
re-run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import msgspec

from bots.contract import ALGORITHM, Player, Random
from bots.ismcts import Simulator, TreeSearch
from bots.rule_based import RULE_BASED
from bots.search import Search
from bots.simulators.heartbeat import HeartbeatSimulator
from bots.simulators.open_hand import OpenHandSimulator
from bots.worlds import worlds


class Budget(msgspec.Struct, frozen=True):
    """Level 3's rollouts a decision and the moves a rollout may last before it is scored as it
    stands; level 4 has twice the rollouts, level 5 four times."""

    rollouts: int
    horizon: int


FIRST_BUDGETS: Mapping[str, Budget] = {
    "open-hand": Budget(rollouts=16, horizon=64),
    "heartbeat": Budget(rollouts=16, horizon=64),
    "double-heartbeat": Budget(rollouts=12, horizon=8),
    "cancellation-hearts": Budget(rollouts=8, horizon=24),
    "one-up-one-down": Budget(rollouts=16, horizon=8),
}
"""Algorithm 1's budgets, uncapped candidates: kept so that its games re-run (its level 5 took
up to 72 ms at p95 on a loaded core: too much)."""

SEARCH_BUDGETS: Mapping[str, Budget] = {
    "open-hand": Budget(rollouts=12, horizon=64),  # a whole game: 5 tricks of up to 8 cards
    "heartbeat": Budget(rollouts=12, horizon=64),  # a whole game: 3 rounds of up to 6 choices
    "double-heartbeat": Budget(rollouts=8, horizon=8),  # a hand is ~130 moves: cut short
    "cancellation-hearts": Budget(rollouts=5, horizon=24),  # cut: hands of ~100 moves
    "one-up-one-down": Budget(rollouts=10, horizon=8),  # cut: a game runs to hundreds of moves
}
"""Algorithm 2's budgets, with candidates capped at half the rollouts (``Search.capped``):
sized so that a level-5 move takes at most 50 ms at p95 on one core (``make bench``)."""


def _search(
    level: int, budgets: Mapping[str, Budget], *, capped: bool
) -> Callable[[str], Player | None]:
    def make(variant: str) -> Player | None:
        budget = budgets.get(variant)
        sampler = worlds().get(variant)
        if budget is None or sampler is None:
            return None
        prior = RULE_BASED[variant]() if variant in RULE_BASED else None
        return Search(
            sampler(),
            rollouts=budget.rollouts << (level - 3),
            horizon=budget.horizon,
            prior=prior,
            capped=capped,
        )

    return make


class Tree(msgspec.Struct, frozen=True):
    """Level 3's iterations of tree search a decision (level 4 twice them, level 5 four times,
    each scaled by the simulator's ``budget``), and whether the rule's move stands unless
    clearly beaten (``TreeSearch``'s ``prior``)."""

    iterations: int
    prior: bool = False


TREES: Mapping[int, Mapping[str, Tree]] = {
    3: {"open-hand": Tree(32)},
    4: {"open-hand": Tree(32), "heartbeat": Tree(4, prior=True)},
}
"""Each algorithm's tree searches (``bots.ismcts``) where a variant has a fast simulator; the
other variants search as in 2. Algorithm 3: Open Hand; 4: Heartbeat too (sized so that a
level-5 move stays within 50 ms: an iteration of its first round costs about a millisecond)."""

SIMULATORS: Mapping[str, Callable[[], Simulator]] = {
    "open-hand": OpenHandSimulator,
    "heartbeat": HeartbeatSimulator,
}


def _tree_or_search(level: int, algorithm: int) -> Callable[[str], Player | None]:
    flat = _search(level, SEARCH_BUDGETS, capped=True)
    trees = TREES[algorithm]

    def make(variant: str) -> Player | None:
        tree = trees.get(variant)
        if tree is None:
            return flat(variant)
        return TreeSearch(
            SIMULATORS[variant](), iterations=tree.iterations << (level - 3), prior=tree.prior
        )

    return make


def _rule_based(variant: str) -> Player | None:
    return RULE_BASED[variant]() if variant in RULE_BASED else None


VERSIONS: Mapping[int, Mapping[int, Callable[[str], Player | None]]] = {
    1: {
        1: lambda variant: Random(),
        2: _rule_based,
        **{level: _search(level, FIRST_BUDGETS, capped=False) for level in (3, 4, 5)},
    },
    2: {
        1: lambda variant: Random(),
        2: _rule_based,
        **{level: _search(level, SEARCH_BUDGETS, capped=True) for level in (3, 4, 5)},
    },
    **{
        algorithm: {
            1: lambda variant: Random(),
            2: _rule_based,
            **{level: _tree_or_search(level, algorithm) for level in (3, 4, 5)},
        }
        for algorithm in (3, 4)
    },
}
"""Algorithm version -> level -> the variant's player (None where the variant has none)."""


class UnknownLevel(ValueError):
    """No such level for the variant (or no such algorithm version)."""


def player(variant: str, level: int, algorithm: int = ALGORITHM) -> Player:
    """The player of ``level`` for ``variant``, as algorithm version ``algorithm`` decides."""
    make = VERSIONS.get(algorithm, {}).get(level)
    found = make(variant) if make is not None else None
    if found is None:
        known = ", ".join(map(str, available_levels(variant, algorithm))) or "none"
        raise UnknownLevel(f"{variant} has no bot of level {level} (levels: {known})")
    return found


def available_levels(variant: str, algorithm: int = ALGORITHM) -> tuple[int, ...]:
    """The levels ``variant`` has bots of, lowest first."""
    return tuple(
        level
        for level, make in sorted(VERSIONS.get(algorithm, {}).items())
        if make(variant) is not None
    )
