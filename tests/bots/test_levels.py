"""Levels: which exist for each variant, refusals of those that do not, every level's games
legal to the end, decisions reproducible from their draw, and search stronger than chance."""

from __future__ import annotations

import msgspec
import pytest

from bots.contract import Random, bot_draw
from bots.duel import duel
from bots.levels import UnknownLevel, available_levels, player
from bots.table import START, bot_seed, new_game, play_out, seat_view
from domain.variants import VARIANTS


def test_every_variant_has_the_random_level_and_no_level_outside_one_to_five() -> None:
    for variant in VARIANTS:
        levels = available_levels(variant)
        assert levels[0] == 1 and set(levels) <= {1, 2, 3, 4, 5}, (variant, levels)


def test_an_unknown_level_is_refused_naming_those_there_are() -> None:
    with pytest.raises(UnknownLevel, match=r"open-hand has no bot of level 6 \(levels: 1, "):
        player("open-hand", 6)
    with pytest.raises(UnknownLevel):
        player("open-hand", 1, algorithm=99)


def levels_to_play() -> list[tuple[str, int]]:
    return [(v, level) for v in sorted(VARIANTS) for level in available_levels(v) if level >= 3]


@pytest.mark.parametrize(("variant", "level"), levels_to_play())
def test_a_search_level_plays_whole_games_without_a_refused_command(
    variant: str, level: int
) -> None:
    rules = VARIANTS[variant]
    for deal, seats in enumerate(sorted({rules.min_seats, rules.max_seats})):
        game = new_game(variant, seats, deal)
        players = [player(variant, level), *[Random()] * (seats - 1)]
        play_out(game, players, [bot_seed(variant, deal, s) for s in range(seats)])
        assert game.state.status == "finished"


@pytest.mark.parametrize(("variant", "level"), levels_to_play())
def test_a_decision_is_the_same_every_time_it_is_made(variant: str, level: int) -> None:
    rules = VARIANTS[variant]
    game = new_game(variant, rules.min_seats, 5)
    seat = rules.to_act(game.state.table)[0]
    view = seat_view(game, seat, START)
    seed = bot_seed(variant, 5, seat)
    made = {
        msgspec.json.encode(
            player(variant, level).choose(view, bot_draw(seed, view.game_id, seat, view.version))
        )
        for _ in range(3)
    }
    assert len(made) == 1


# Deals per duel: the variants whose rollouts play to the end decide in milliseconds; the others
# play long games (hundreds of moves, every one searched), where a few deals already tell.
DEALS = {"open-hand": 16, "heartbeat": 16}


@pytest.mark.parametrize("variant", sorted(v for v in VARIANTS if 3 in available_levels(v)))
def test_the_lowest_search_level_beats_random_play(variant: str) -> None:
    rules = VARIANTS[variant]
    seats = min(max(4, rules.min_seats), rules.max_seats)
    result = duel(variant, seats, player(variant, 3), Random(), range(DEALS.get(variant, 2)))
    assert result.low > 0.5, result
