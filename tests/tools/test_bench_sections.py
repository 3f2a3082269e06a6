"""`cardledger bench` sections "engine", "bots" and "growth" in quick mode: well-formed figures
only.

Nothing here times anything or compares numbers: a figure must merely be a finite positive value
beside a finite positive baseline, with words saying what both are.
"""

from __future__ import annotations

import math
from types import ModuleType

import pytest

from service.tools.bench import bots, engine, growth, ratings
from service.tools.bench.figures import Figure


def assert_well_formed(figures: list[Figure], section: str) -> None:
    assert figures, f"section {section} gave no figure"
    for figure in figures:
        assert figure.section == section
        assert figure.name.strip() and figure.unit.strip() and figure.baseline.strip()
        for number in (figure.value, figure.baseline_value, figure.ratio):
            assert math.isfinite(number) and number > 0, f"{figure.name}: {number}"
    names = [figure.name for figure in figures]
    assert len(set(names)) == len(names), "two figures of one section share a name"


@pytest.mark.parametrize(
    "section", [engine, bots, growth, ratings], ids=["engine", "bots", "growth", "ratings"]
)
def test_quick_figures_are_well_formed(section: ModuleType) -> None:
    figures = section.figures(quick=True)
    assert_well_formed(figures, section.__name__.rpartition(".")[2])


def test_engine_without_rlcard_still_has_a_baseline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "rlcard_module", lambda: None)
    figures = engine.figures(quick=True)
    assert_well_formed(figures, "engine")
    playouts = [figure for figure in figures if "playouts" in figure.name]
    assert len(playouts) == len(engine.PAIRINGS)
    assert all("RLCard is not installed" in figure.baseline for figure in playouts)


def test_ratings_recover_the_simulated_skills_and_ties_share_ranks() -> None:
    assert ratings.ranked([3.0, 1.0, 3.0, 2.0]) == [3.5, 1.0, 3.5, 2.0]
    assert ratings.spearman([1.0, 1.0, 1.0, 1.0], [1.0, 2.0, 3.0, 4.0]) == 0.0
    population = ratings.Population(60, seed=7)
    games = [population.game() for _ in range(600)]
    again = ratings.Population(60, seed=7)
    assert games[:3] == [again.game() for _ in range(3)], "the same seed, the same games"
    rated = ratings.rated(games)
    everyone = sorted(rated)
    rho = ratings.spearman(
        [rated[p].mu for p in everyone], [population.skills[p] for p in everyone]
    )
    assert rho > 0.8, f"ratings barely follow the true skills: ρ = {rho:.2f}"
