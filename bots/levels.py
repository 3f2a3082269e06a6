"""The bots by level, for every variant: which exist and the player of each.

Level 1 is a uniformly random legal command, the same for every variant; level 2 a rule-based
player of the variant's own (``bots.rule_based``). Each algorithm version ever recorded maps to
its players here, so an old game's bots can always be re-run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bots.contract import ALGORITHM, Player, Random
from bots.rule_based import RULE_BASED

VERSIONS: Mapping[int, Mapping[int, Callable[[str], Player | None]]] = {
    1: {
        1: lambda variant: Random(),
        2: lambda variant: RULE_BASED[variant]() if variant in RULE_BASED else None,
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
