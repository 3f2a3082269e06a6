"""Open Hand's level 2: it never sends a refused command, it plays the way its rules say (lead
low, take a trick with the cheapest card that can, throw the lowest when none can), and it beats
the random level clearly on duplicate deals."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from bots.contract import Player, Random, bot_draw
from bots.duel import duel
from bots.rule_based.open_hand import OpenHandRuleBased
from bots.table import START, bot_seed, new_game, play_out, seat_view
from domain.aggregate import GameAggregate
from domain.cards import standard_deck
from domain.commands import Command, Leave, PlayCard
from domain.fairness import Draw
from domain.variants.open_hand.rules import strength
from domain.variants.open_hand.view import OpenHandView
from projections.views import View

VARIANT = "open-hand"
GAMES = int(os.environ.get("CARDLEDGER_BOT_GAMES", "60"))
DEALS_SEARCHED = 200  # a scenario's position is the first one reached that fits
OPTIONS: list[dict[str, Any] | None] = [
    None,
    {"first_leader": "high_card"},
    {"first_leader": "high_card", "tiebreak": "playoff"},
    {"tiebreak": "playoff"},
]


def lineup(seats: int, deal: int, mixed: bool) -> list[Player]:
    """Level 2 everywhere, or every other seat (which ones alternates by deal) random."""
    if not mixed:
        return [OpenHandRuleBased() for _ in range(seats)]
    return [Random() if (seat + deal) % 2 else OpenHandRuleBased() for seat in range(seats)]


def offered(game: GameAggregate, seat: int, view: View, command: Command) -> None:
    """A bot's command is one its view lists (the strictest reading of 'legal')."""
    listed = [msgspec.json.encode(c) for c in view.legal_commands]
    assert msgspec.json.encode(command) in listed, (seat, view.version, command)


@pytest.mark.parametrize("mixed", [False, True], ids=["all-level-2", "mixed-with-random"])
@pytest.mark.parametrize("seats", [2, 5, 8])
def test_level_2_finishes_every_game_without_a_refused_command(seats: int, mixed: bool) -> None:
    for deal in range(GAMES):
        options = OPTIONS[deal % len(OPTIONS)]
        game = new_game(VARIANT, seats, deal, options)
        seeds = [bot_seed(VARIANT, deal, seat) for seat in range(seats)]
        play_out(game, lineup(seats, deal, mixed), seeds, watch=offered)
        assert game.state.status == "finished", (deal, options, game.state.status)
        assert game.state.outcome is not None and game.state.outcome.reason == "complete"


def test_level_2_plays_on_past_a_seat_that_left_mid_trick() -> None:
    for deal in range(GAMES // 4):
        game = new_game(VARIANT, 4, deal, OPTIONS[deal % len(OPTIONS)])
        for _ in range(deal % 7):  # a few cards played first, so it leaves at any point
            seat = game.state.rules.to_act(game.state.table)[0]
            act(game, seat, Random().choose(seat_view(game, seat, START), draw_for(game, seat)))
        act(game, deal % 4, Leave())
        seeds = [bot_seed(VARIANT, deal, seat) for seat in range(4)]
        play_out(game, lineup(4, deal, mixed=False), seeds, watch=offered)
        assert game.state.outcome is not None and game.state.outcome.reason == "complete"
        assert deal % 4 not in game.state.outcome.winners


# Rule scenarios: a seeded game played by random bots until the seat on turn is at a position
# that fits, then the level-2 bot's choice there.


def act(game: GameAggregate, seat: int, command: Command) -> None:
    game.act(player_id=f"p{seat}", command=command, command_id=f"s{game.version}", now=START)


def draw_for(game: GameAggregate, seat: int) -> Draw:
    seed = bot_seed(VARIANT, 0, seat)
    return bot_draw(seed, str(game.id), seat, game.version)


def position(
    seats: int, fits: Callable[[View], bool], options: dict[str, Any] | None = None
) -> View:
    """The view of the first seat on turn, over deals played by random bots, where ``fits``."""
    for deal in range(DEALS_SEARCHED):
        game = new_game(VARIANT, seats, deal, options)
        while game.state.status == "active":
            seat = game.state.rules.to_act(game.state.table)[0]
            view = seat_view(game, seat, START)
            if fits(view):
                return view
            act(game, seat, Random().choose(view, draw_for(game, seat)))
    raise AssertionError(f"no deal of {DEALS_SEARCHED} reaches the position")


def decide(view: View) -> str:
    seat = view.seat or 0
    command = OpenHandRuleBased().choose(view, bot_draw(b"\x00" * 32, view.game_id, seat, 0))
    assert isinstance(command, PlayCard)
    return command.card


def table(view: View) -> OpenHandView:
    assert isinstance(view.table, OpenHandView)
    return view.table


def hand(view: View) -> list[str]:
    return sorted(view.hand or (), key=strength)


def beating(view: View) -> list[str]:
    """The seat's cards that beat every card of the trick so far, lowest first."""
    best = max(strength(play.card) for play in table(view).trick)
    return [card for card in hand(view) if strength(card) > best]


def still_to_play(view: View) -> list[int]:
    played = {play.seat for play in table(view).trick} | {view.seat}
    seats = enumerate(view.hand_sizes)
    return [s for s, size in seats if size and s not in played and not view.seats[s].left]


def unseen_above(view: View, card: str) -> int:
    seen = {*hand(view), *table(view).first_leader_draws}
    seen.update(c for cards in table(view).played for c in cards)
    return sum(strength(c) > strength(card) for c in standard_deck() if c not in seen)


def unseen_count(view: View) -> int:
    seen = len(hand(view)) + len(table(view).first_leader_draws)
    return 52 - seen - sum(len(cards) for cards in table(view).played)


@pytest.mark.parametrize("seats", [2, 6])
def test_the_leader_leads_its_lowest_card(seats: int) -> None:
    view = position(seats, lambda v: not table(v).trick and len(hand(v)) >= 3)
    assert decide(view) == hand(view)[0]


@pytest.mark.parametrize("seats", [2, 4])
def test_last_to_play_it_takes_the_trick_with_its_cheapest_winning_card(seats: int) -> None:
    def fits(v: View) -> bool:
        return (
            bool(table(v).trick)
            and not still_to_play(v)
            and len(beating(v)) >= 2
            and beating(v)[0] != hand(v)[0]
        )

    view = position(seats, fits)
    assert decide(view) == beating(view)[0]


@pytest.mark.parametrize("seats", [3, 6])
def test_when_no_card_beats_the_table_it_throws_its_lowest(seats: int) -> None:
    view = position(seats, lambda v: bool(table(v).trick) and not beating(v) and len(hand(v)) >= 3)
    assert decide(view) == hand(view)[0]


def test_with_others_still_to_play_it_takes_the_trick_with_its_cheapest_winning_card() -> None:
    def fits(v: View) -> bool:
        if not table(v).trick or not still_to_play(v) or len(beating(v)) < 2:
            return False
        return beating(v)[0] != hand(v)[0] and unseen_above(v, beating(v)[0]) <= 2

    view = position(5, fits)
    assert decide(view) == beating(view)[0]


def test_it_contests_a_trick_even_where_a_later_player_almost_surely_tops_it() -> None:
    def fits(v: View) -> bool:
        if not table(v).trick or len(beating(v)) < 2 or beating(v)[0] == hand(v)[0]:
            return False
        later_cards = sum(v.hand_sizes[s] for s in still_to_play(v))
        # each later card tops it with a chance of at least a half: all miss below 1 in 250
        return later_cards >= 8 and 2 * unseen_above(v, beating(v)[0]) >= unseen_count(v)

    view = position(8, fits)
    assert decide(view) == beating(view)[0], "the one who tops it spends a higher card"


@pytest.mark.parametrize("seats", [2, 5, 8])
def test_level_2_beats_random_on_duplicate_deals(seats: int) -> None:
    deals = {2: 40, 5: 20, 8: 30}[seats]
    result = duel(VARIANT, seats, OpenHandRuleBased(), Random(), range(deals))
    assert result.low > 0.5, result
    assert result.strong_points > result.weak_points, result
