"""Every registered variant passes the conformance suite (tests/conformance/suite.py), on the
short tables of tests/client.py (their coverage of the registry is tests/conformance/
test_registry.py's)."""

from __future__ import annotations

import pytest

from domain.variants import VARIANTS
from tests.conformance.suite import conforming_game
from tests.support.client import SHORT_GAMES

SEEDS = range(4)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_random_games_conform(variant: str, seed: int) -> None:
    seats, options = SHORT_GAMES[variant]
    conforming_game(variant, seats, options, seed)
