"""Duels: seatings that give each side every seat's cards equally, the pair scoring, and a
duel that tells a level from itself and from a player that throws games."""

from __future__ import annotations

import pytest

from bots.contract import Random, moves
from bots.duel import cross_share, duel, placings, seatings
from domain.commands import Command
from domain.fairness import Draw
from domain.variant import Outcome
from projections.views import View


@pytest.mark.parametrize("seats", range(2, 12))
def test_each_seat_is_played_by_each_side_equally_often(seats: int) -> None:
    found = seatings(seats)
    assert len(set(found)) == len(found)
    for seat in range(seats):
        assert sum(s[seat] for s in found) * 2 == len(found)
    assert all(0 < sum(s) < seats for s in found)


def test_a_game_scores_the_cross_pairs_winners_first_then_points() -> None:
    outcome = Outcome(scores=(3, 5, 5, 1), winners=(0,))
    placing = placings(outcome, lower_wins=False)
    assert cross_share(placing, (True, False, True, False)) == pytest.approx((1 + 1 + 0.5 + 1) / 4)
    lowest = placings(Outcome(scores=(3, 5, 5, 1), winners=(3,)), lower_wins=True)
    assert cross_share(lowest, (True, False, True, False)) == pytest.approx((1 + 0 + 0.5 + 0) / 4)


class Thrower:
    """Plays the first move listed (the lowest cards first): a weak, predictable player."""

    def choose(self, view: View, draw: Draw) -> Command:
        first = moves(view)[0]
        assert isinstance(first, Command)
        return first


def test_a_level_against_itself_scores_a_half_exactly_on_duplicate_deals() -> None:
    result = duel("heartbeat", 3, Random(), Random(), range(20))
    assert result.games == 20 * len(seatings(3))
    assert (result.share, result.low, result.high) == (0.5, 0.5, 0.5)
    assert result.strong_points == result.weak_points


def test_a_duel_tells_two_players_apart() -> None:
    result = duel("open-hand", 4, Random(), Thrower(), range(60))
    assert result.share != pytest.approx(0.5)
    assert result.low > 0.5 or result.high < 0.5, result
