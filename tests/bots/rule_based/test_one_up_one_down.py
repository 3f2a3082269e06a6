"""Level 2 of One Up One Down: always a listed command, what a sensible player does in a few
positions reached by seeded games, and clearly stronger than the random level."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from bots.contract import Player, Random
from bots.duel import duel
from bots.rule_based.one_up_one_down import OneUpOneDownRuleBased
from bots.table import START, bot_seed, new_game, play_out, seat_view
from domain.cards import rank
from domain.commands import Command
from domain.fairness import RandomStream
from domain.variants.one_up_one_down.messages import (
    RANKS,
    Challenge,
    Decline,
    PlayDown,
    PlayUp,
    Rank,
    VoteEnd,
)
from domain.variants.one_up_one_down.table import order
from domain.variants.one_up_one_down.view import OneUpOneDownView
from projections.views import View

VARIANT = "one-up-one-down"
GAMES = int(os.environ.get("CARDLEDGER_BOT_GAMES", "40"))
LEVEL_2 = OneUpOneDownRuleBased()


# --- legality ---------------------------------------------------------------------------------


def listed_only(_game: object, seat: int, view: View, command: Command) -> None:
    assert command in view.legal_commands, (seat, view.version, command)


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("company", ["level 2", "mixed"])
def test_every_game_ends_and_every_command_is_listed(seats: int, company: str) -> None:
    for deal in range(GAMES):
        players: list[Player] = [
            LEVEL_2 if company == "level 2" or (seat + deal) % 2 == 0 else Random()
            for seat in range(seats)
        ]
        game = play_out(
            new_game(VARIANT, seats, deal),
            players,
            [bot_seed(VARIANT, deal, seat) for seat in range(seats)],
            watch=listed_only,
        )
        assert game.state.status == "finished", (deal, game.state.status)
        outcome = game.state.outcome
        assert outcome is not None and outcome.reason == "complete", deal
        if company == "level 2":
            # Bots alone never end by vote (see the bot's module docstring): a game of
            # theirs ends by a last card, not by going round in circles up to the cap.
            ended_by = seat_view(game, 0, START).table.ended_by
            assert ended_by == "last_card", (deal, ended_by)


# --- positions --------------------------------------------------------------------------------


class Reached(Exception):
    def __init__(self, view: View) -> None:
        self.view = view


def reach(
    seats: int,
    players: Sequence[Player],
    wanted: Callable[[View, OneUpOneDownView], bool],
    deals: range = range(200),
) -> View:
    """The first view of a seated bot's decision, over seeded games, that ``wanted`` accepts."""

    def stop(_game: object, _seat: int, view: View, _command: Command) -> None:
        if wanted(view, view.table):
            raise Reached(view)

    for deal in deals:
        try:
            play_out(
                new_game(VARIANT, seats, deal),
                players,
                [bot_seed(VARIANT, deal, seat) for seat in range(seats)],
                watch=stop,
            )
        except Reached as reached:
            return reached.view
    raise AssertionError("no seeded game reached the position")


def choices(view: View, tries: int = 8) -> set[Command]:
    """What level 2 chooses here over several draws (a rule does not hang on one draw)."""
    stream = RandomStream(b"\x07" * 32, "scenario", ())
    return {LEVEL_2.choose(view, stream.draw(f"d{n}")) for n in range(tries)}


def ranks_of(cards: Sequence[str]) -> list[int]:
    return sorted(order(rank(card)) for card in cards)


def seen(view: View, table: OneUpOneDownView) -> Counter[str]:
    cards = [*(view.hand or ()), *(c.card for c in table.pile if c.card is not None)]
    return Counter(rank(card) for card in cards)


def opens_window(view: View, table: OneUpOneDownView) -> bool:
    return table.challenge is not None and Challenge() in view.legal_commands


def to_play(view: View, table: OneUpOneDownView, facing: str) -> bool:
    return table.challenge is None and table.to_play == view.seat and table.facing == facing


def meeting(view: View, table: OneUpOneDownView) -> list[str]:
    return [c for c in view.hand or () if order(rank(c)) >= order(table.target)]


def below(view: View, table: OneUpOneDownView) -> list[str]:
    return [c for c in view.hand or () if order(rank(c)) < order(table.target)]


def test_face_up_it_plays_its_lowest_card_that_meets_the_target_not_its_lowest() -> None:
    view = reach(
        3,
        [LEVEL_2] * 3,
        lambda v, t: to_play(v, t, "up") and len(meeting(v, t)) > 1 and bool(below(v, t)),
    )
    (command,) = choices(view)
    assert isinstance(command, PlayUp)
    assert order(rank(command.card)) == ranks_of(meeting(view, view.table))[0]


def test_face_up_with_nothing_that_meets_the_target_it_gives_up_its_lowest_card() -> None:
    view = reach(
        3,
        [LEVEL_2] * 3,
        lambda v, t: (
            to_play(v, t, "up") and not meeting(v, t) and len(set(ranks_of(v.hand or ()))) > 1
        ),
    )
    (command,) = choices(view)
    assert isinstance(command, PlayUp)
    assert order(rank(command.card)) == ranks_of(view.hand or ())[0]


def test_face_down_on_a_big_pile_it_plays_its_lowest_card_that_meets_and_declares_it() -> None:
    view = reach(
        2,
        [LEVEL_2] * 2,
        lambda v, t: (
            to_play(v, t, "down")
            and len(t.pile) > 2
            and len(meeting(v, t)) > 1
            and bool(below(v, t))
        ),
    )
    (command,) = choices(view)
    assert isinstance(command, PlayDown)
    assert command.declared == rank(command.card)
    assert order(command.declared) == ranks_of(meeting(view, view.table))[0]


def test_face_down_with_nothing_that_meets_it_bluffs_its_lowest_card_as_a_rank_that_would() -> None:
    view = reach(
        2,
        [LEVEL_2] * 2,
        lambda v, t: to_play(v, t, "down") and not meeting(v, t) and len(v.hand or ()) > 1,
    )
    table: OneUpOneDownView = view.table
    (command,) = choices(view)
    assert isinstance(command, PlayDown)
    assert order(rank(command.card)) == ranks_of(view.hand or ())[0]
    assert order(command.declared) >= order(table.target), "a declaration below fails for sure"


def test_it_challenges_a_declaration_below_the_target() -> None:
    view = reach(
        2,
        [Random(), LEVEL_2],
        lambda v, t: (
            opens_window(v, t)
            and t.challenge is not None
            and order(t.challenge.declared) < order(t.challenge.target)
            and v.hand_sizes[t.challenge.seat] > 1
        ),
    )
    assert choices(view) == {Challenge()}


def test_it_challenges_a_rank_whose_every_copy_it_can_see() -> None:
    # Three seats; the second to play holds three cards of a rank the third holds the last of.
    # The third plays that last copy face up, then the first declares the rank face down: the
    # second sees all four and knows it is a lie.
    deal, first, liar_rank = next(
        (deal, *found) for deal in range(1000) if (found := three_and_the_last(deal)) is not None
    )
    game = new_game(VARIANT, 3, deal)
    counter, last = (first + 1) % 3, (first + 2) % 3
    hands = game.state.table.hands
    script = [
        (first, PlayUp(card=hands[first][0])),
        (counter, PlayDown(card=lowest_but(hands[counter], liar_rank), declared="3")),
        (last, Decline()),
        (first, Decline()),
        (last, PlayUp(card=next(c for c in hands[last] if rank(c) == liar_rank))),
        (first, PlayDown(card=game.state.table.hands[first][-1], declared=liar_rank)),
    ]
    for move, (seat, command) in enumerate(script):
        game.act(player_id=f"p{seat}", command=command, command_id=f"s{move}", now=START)
    view = seat_view(game, counter, START)
    assert view.table.challenge is not None and view.table.challenge.declared == liar_rank
    assert seen(view, view.table)[liar_rank] == 4
    assert choices(view) == {Challenge()}


def three_and_the_last(deal: int) -> tuple[int, Rank] | None:
    """(first player, rank) if the seat after the first holds three of a rank and the seat
    after it the fourth."""
    table = new_game(VARIANT, 3, deal).state.table
    first = table.turn
    held = [Counter(rank(card) for card in table.hands[(first + k) % 3]) for k in range(3)]
    return next(
        ((first, r) for r in RANKS if held[1][r] == 3 and held[2][r] == 1),
        None,
    )


def lowest_but(hand: Sequence[str], avoided: str) -> str:
    return next(card for card in hand if rank(card) != avoided)


def test_it_always_challenges_a_last_card() -> None:
    view = reach(
        3,
        [LEVEL_2] * 3,
        lambda v, t: (
            opens_window(v, t) and t.challenge is not None and v.hand_sizes[t.challenge.seat] == 0
        ),
    )
    assert choices(view) == {Challenge()}


def test_it_lets_an_opening_play_of_a_full_hand_stand() -> None:
    # A face-down card on the round's first face-up card, from a player still holding six
    # cards: it most likely meets the low target, so doubting it is a bad bet.
    view = reach(
        2,
        [LEVEL_2] * 2,
        lambda v, t: (
            opens_window(v, t)
            and t.challenge is not None
            and len(t.pile) == 2
            and order(t.challenge.target) <= order("6")
            and t.challenge.declared == t.challenge.target
            and v.hand_sizes[t.challenge.seat] >= 6
            and seen(v, t)[t.challenge.declared] <= 2
        ),
    )
    assert choices(view) == {Decline()}


def stock_empty_turn(fewest: bool) -> Callable[[View, OneUpOneDownView], bool]:
    def wanted(v: View, t: OneUpOneDownView) -> bool:
        mine = v.hand_sizes[v.seat or 0]
        others = [n for seat, n in enumerate(v.hand_sizes) if seat != v.seat]
        return (
            v.seat == 1
            and VoteEnd() in v.legal_commands
            and t.to_play == v.seat
            and (mine <= min(others) if fewest else mine > min(others))
        )

    return wanted


def test_with_the_stock_empty_it_votes_to_end_when_it_holds_the_fewest_cards() -> None:
    view = reach(2, [Random(), Random()], stock_empty_turn(fewest=True))
    assert choices(view) == {VoteEnd()}


def test_with_the_stock_empty_it_plays_on_when_ending_would_lose() -> None:
    view = reach(2, [Random(), Random()], stock_empty_turn(fewest=False))
    assert all(isinstance(c, PlayUp | PlayDown) for c in choices(view))


# --- strength ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_level_2_beats_random_clearly(seats: int) -> None:
    result = duel(VARIANT, seats, LEVEL_2, Random(), range(24))
    assert result.low > 0.5, result
    assert result.share > 0.6, result
