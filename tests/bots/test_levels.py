"""Levels: which exist for each variant, refusals of those that do not, every level's games
legal to the end, decisions reproducible from their draw, and search stronger than chance."""

from __future__ import annotations

import hashlib

import msgspec
import pytest

from bots.contract import Random, bot_draw
from bots.duel import duel
from bots.levels import VERSIONS, UnknownLevel, available_levels, player
from bots.search import at_most
from bots.table import START, bot_seed, new_game, play_out, seat_view
from domain.aggregate import GameAggregate
from domain.commands import Command, PlayCard
from domain.fairness import Draw
from domain.variants import VARIANTS
from projections.views import View


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


# Each algorithm's search decisions at six positions per variant (a level-1 game, deal 7, four
# seats or the nearest allowed), levels 3 to 5: algorithm 1's as made before algorithm 2 existed,
# 2's before 3 existed, 3's before 4 existed. Games recorded under a version must re-run to the
# same commands.
RECORDED_DECISIONS = {
    1: "6864c136623d30188f3cfb3f6dffe65aa66ba08e61e91e6dd9c07b72c0550f6d",
    2: "6b80caea3eed9529d3cb0505f1e5b4c67338b197f316fdc77455d244f65b1a8e",
    3: "620c99864a48f8d888cb1fcdff28670c8f3b5ffbb716c9115fa63e9ac0b7193c",
    4: "6dc9477194251bd50c82bd833a72504dc57906972d697a6a933d62ea682ac7c6",
}


def test_every_algorithm_version_is_recorded_here() -> None:
    assert set(RECORDED_DECISIONS) == set(VERSIONS)


@pytest.mark.parametrize("algorithm", sorted(RECORDED_DECISIONS))
def test_an_algorithm_decides_as_it_did_when_it_was_recorded(algorithm: int) -> None:
    digest = hashlib.sha256()
    for variant in sorted(VARIANTS):
        rules = VARIANTS[variant]
        seats = min(max(4, rules.min_seats), rules.max_seats)
        seen = views_of_a_random_game(variant, seats, deal=7)
        for view in seen[:: max(1, len(seen) // 6)][:6]:
            assert view.seat is not None
            for level in (3, 4, 5):
                draw = bot_draw(b"\x01" * 32, view.game_id, view.seat, view.version)
                command = player(variant, level, algorithm).choose(view, draw)
                digest.update(msgspec.json.encode(command))
    assert digest.hexdigest() == RECORDED_DECISIONS[algorithm]


def views_of_a_random_game(variant: str, seats: int, deal: int) -> list[View]:
    seen: list[View] = []

    def keep(game: GameAggregate, seat: int, view: View, command: Command) -> None:
        seen.append(view)

    seeds = [bot_seed(variant, deal, s) for s in range(seats)]
    play_out(new_game(variant, seats, deal), [Random()] * seats, seeds, watch=keep)
    return seen


def test_capped_candidates_keep_the_rule_and_draw_the_rest() -> None:
    options: list[Command] = [PlayCard(card=f"{rank}S") for rank in "23456789"]
    draw = Draw(b"\x02" * 16, b"cap")
    kept = at_most(options, 3, draw, keep_first=True)
    assert len(kept) == 3 and kept[0] == options[0]
    assert len(set(kept)) == 3 and set(kept) <= set(options)
    assert at_most(options, 3, Draw(b"\x02" * 16, b"cap"), keep_first=True) == kept
    assert at_most(options, 8, draw, keep_first=True) == options
    assert len(at_most(options, 2, draw, keep_first=False)) == 2


@pytest.mark.parametrize("algorithm", sorted(VERSIONS))
def test_every_algorithm_version_has_every_level_of_every_variant(algorithm: int) -> None:
    for variant in VARIANTS:
        assert available_levels(variant, algorithm) == (1, 2, 3, 4, 5), (algorithm, variant)
