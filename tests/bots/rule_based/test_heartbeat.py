"""Heartbeat's level 2: it never sends a refused command, it plays its cards the way the rules
of thumb say (spend where it pays, keep the extremes, never show the card it needs), and it beats
the random level clearly on duplicate deals."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from bots.contract import Player, Random, bot_draw, moves
from bots.duel import duel
from bots.rule_based.heartbeat import HeartbeatRuleBased
from bots.table import START, bot_seed, new_game, play_out, seat_view
from domain.aggregate import GameAggregate
from domain.commands import Command
from domain.variants.heartbeat.messages import ChooseCard, RevealCard
from domain.variants.heartbeat.table import card_value
from domain.variants.heartbeat.view import HeartbeatView
from projections.views import View

VARIANT = "heartbeat"
GAMES = int(os.environ.get("CARDLEDGER_BOT_GAMES", "60"))
DEALS_SEARCHED = 300  # a scenario's position is the first deal that reaches it
OPTIONS: list[dict[str, Any] | None] = [
    None,
    {"tempo_deck": 0},
    {"tempo_deck": 8, "reveal_shows": "rank"},
    {"jokers": "removed", "double_rule": "others_one", "pressure_seconds": 10},
]


def lineup(seats: int, deal: int, mixed: bool) -> list[Player]:
    """Level 2 everywhere, or every other seat (which ones alternates by deal) random."""
    if not mixed:
        return [HeartbeatRuleBased() for _ in range(seats)]
    return [Random() if (seat + deal) % 2 else HeartbeatRuleBased() for seat in range(seats)]


def offered(game: GameAggregate, seat: int, view: View, command: Command) -> None:
    """A bot's command is one its view lists (the strictest reading of 'legal')."""
    listed = [msgspec.json.encode(c) for c in view.legal_commands]
    assert msgspec.json.encode(command) in listed, (seat, view.version, command)


@pytest.mark.parametrize("mixed", [False, True], ids=["all-level-2", "mixed-with-random"])
@pytest.mark.parametrize("seats", [2, 4, 6])
def test_level_2_finishes_every_game_without_a_refused_command(seats: int, mixed: bool) -> None:
    for deal in range(GAMES):
        options = OPTIONS[deal % len(OPTIONS)]
        game = new_game(VARIANT, seats, deal, options)
        seeds = [bot_seed(VARIANT, deal, seat) for seat in range(seats)]
        play_out(game, lineup(seats, deal, mixed), seeds, watch=offered)
        assert game.state.status == "finished", (deal, options, game.state.status)
        assert game.state.outcome is not None and game.state.outcome.reason == "complete"


# Rule scenarios: a seeded game played to a position (every other seat plays its lowest card),
# then the level-2 bot's choice there.

Position = tuple[GameAggregate, View, HeartbeatView]


def lowest(view: View) -> Command:
    entry = moves(view)[0]  # Heartbeat lists its cards lowest value first
    assert isinstance(entry, RevealCard | ChooseCard)
    return entry


def act(game: GameAggregate, seat: int, command: Command) -> None:
    game.act(player_id=f"p{seat}", command=command, command_id=f"s{game.version}", now=START)


def advance(game: GameAggregate, seat: int, until: Callable[[HeartbeatView], bool]) -> bool:
    """Play lowest cards for every seat until ``seat`` is to act where ``until`` holds; False
    if the game ends first. All at the start time, so no Pressure deadline ever passes."""
    while game.state.status == "active":
        awaited = game.state.rules.to_act(game.state.table)
        view = seat_view(game, seat, START)
        if seat in awaited and until(view.table):
            return True
        mover = seat if seat in awaited else awaited[0]
        act(game, mover, lowest(seat_view(game, mover, START)))
    return False


def position(
    seats: int, where: Callable[[HeartbeatView, list[int]], bool], options: dict[str, Any] | None
) -> Position:
    """The first deal where seat 0 comes to act at a table view and hand values that fit."""
    for deal in range(DEALS_SEARCHED):
        game = new_game(VARIANT, seats, deal, options)

        def fits(table: HeartbeatView, game: GameAggregate = game) -> bool:
            return where(table, values(seat_view(game, 0, START)))

        if advance(game, 0, fits):
            view = seat_view(game, 0, START)
            assert isinstance(view.table, HeartbeatView)
            return game, view, view.table
    raise AssertionError(f"no deal of {DEALS_SEARCHED} reaches the position")


def values(view: View) -> list[int]:
    return sorted(card_value(card) for card in view.hand or ())


def decide(game: GameAggregate, view: View) -> Command:
    seat = view.seat or 0
    seed = bot_seed(VARIANT, 0, seat)
    return HeartbeatRuleBased().choose(view, bot_draw(seed, view.game_id, seat, game.version))


def chosen_value(game: GameAggregate, view: View) -> int:
    command = decide(game, view)
    assert isinstance(command, ChooseCard)
    return card_value(command.card)


def unique_extremes(hand: list[int]) -> bool:
    return len(hand) >= 2 and hand[0] < hand[1] and hand[-2] < hand[-1]


@pytest.mark.parametrize("tempo", ["pressure", "double"])
def test_in_the_last_round_where_the_highest_wins_it_plays_its_highest_card(tempo: str) -> None:
    game, view, _ = position(
        4,
        lambda t, hand: t.round == 3 and t.tempo == tempo and unique_extremes(hand),
        None,
    )
    assert chosen_value(game, view) == max(values(view))


def test_in_the_last_round_without_tempo_cards_it_plays_its_highest_card() -> None:
    game, view, _ = position(
        3, lambda t, hand: t.round == 3 and unique_extremes(hand), {"tempo_deck": 0}
    )
    assert chosen_value(game, view) == max(values(view))


def test_in_a_last_reverse_round_it_plays_its_lowest_card() -> None:
    game, view, _ = position(
        4, lambda t, hand: t.round == 3 and t.tempo == "reverse" and unique_extremes(hand), None
    )
    assert chosen_value(game, view) == min(values(view))


def test_in_a_last_reveal_round_it_shows_another_card_than_its_best_then_plays_the_best() -> None:
    game, view, _ = position(
        2,
        lambda t, hand: t.round == 3 and t.phase == "reveal" and unique_extremes(hand),
        None,
    )
    best = max(values(view))
    shown = decide(game, view)
    assert isinstance(shown, RevealCard) and card_value(shown.card) != best
    act(game, 0, shown)
    assert advance(game, 0, lambda t: t.phase == "choose"), "the other seat reveals, then choose"
    assert chosen_value(game, seat_view(game, 0, START)) == best


def test_in_a_double_round_before_the_last_it_spends_a_ten() -> None:
    game, view, _ = position(
        4,
        lambda t, hand: t.round < 3 and t.tempo == "double" and 10 in hand and hand[0] < 10,
        None,
    )
    assert chosen_value(game, view) == 10


def test_without_a_ten_at_a_full_table_it_throws_away_a_middle_card_in_the_first_round() -> None:
    game, view, _ = position(
        6,
        lambda t, hand: (
            t.round == 1 and t.tempo == "pressure" and 10 not in hand and len(set(hand)) == 5
        ),
        None,
    )
    hand = values(view)
    assert hand[0] < chosen_value(game, view) < hand[-1], "it keeps its extremes for later"


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_level_2_beats_random_on_duplicate_deals(seats: int) -> None:
    deals = {2: 60, 4: 20, 6: 8}[seats]
    result = duel(VARIANT, seats, HeartbeatRuleBased(), Random(), range(deals))
    assert result.low > 0.5, result
    assert result.strong_points > result.weak_points, result
