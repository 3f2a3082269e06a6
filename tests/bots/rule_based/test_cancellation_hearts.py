"""Level 2 of Cancellation Hearts: it never sends a refused command, it plays as a sensible
player does in positions reached by seeded games, and it beats the random level."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from datetime import datetime

import msgspec
import pytest

from bots.contract import Player, Random, bot_draw
from bots.duel import duel
from bots.rule_based.cancellation_hearts import CancellationHeartsRuleBased
from bots.table import START, STEP, bot_seed, new_game, play_out, seat_view
from domain.commands import Command, PlayCard
from domain.variants.cancellation_hearts.messages import ChooseMoon, PassCards
from domain.variants.cancellation_hearts.tricks import POINTS_OF, QUEEN, RANK_OF, SUIT_OF, resolve
from domain.variants.cancellation_hearts.view import CancellationHeartsView
from projections.views import View

VARIANT = "cancellation-hearts"
SEAT_COUNTS = (6, 8, 11)
LINEUPS = ("level 2 everywhere", "level 2 and random alternately")
GAMES = int(os.environ.get("CARDLEDGER_BOT_GAMES", "12"))  # over the whole legality test
DUEL_DEALS = 4
SEARCH_DEALS = 40
RISKY_LEADS = {"AS", "KS", QUEEN}  # seeded games searched for a scenario's position

BOT = CancellationHeartsRuleBased()


def lineup(name: str, seats: int) -> list[Player]:
    if name == LINEUPS[0]:
        return [BOT] * seats
    return [BOT if seat % 2 == 0 else Random() for seat in range(seats)]


@pytest.mark.parametrize("seats", SEAT_COUNTS)
@pytest.mark.parametrize("players", LINEUPS)
def test_level_2_finishes_every_game_without_a_refused_command(seats: int, players: str) -> None:
    for deal in range(-(-GAMES // (len(SEAT_COUNTS) * len(LINEUPS)))):
        seeds = [bot_seed(VARIANT, deal, seat) for seat in range(seats)]
        game = play_out(new_game(VARIANT, seats, deal), lineup(players, seats), seeds)
        assert game.state.status == "finished", (seats, players, deal)
        assert game.state.outcome is not None and game.state.outcome.reason == "complete"


def test_level_2_beats_random_on_duplicate_deals() -> None:
    result = duel(VARIANT, 6, BOT, Random(), range(DUEL_DEALS))
    assert result.low > 0.5, result
    assert result.strong_points < result.weak_points, result


# --- positions ------------------------------------------------------------------------------------


def positions(seats: int) -> Iterator[View]:
    """Every view a seat acts on in seeded games of random players, in order."""
    for deal in range(SEARCH_DEALS):
        game = new_game(VARIANT, seats, deal)
        now: datetime = START
        move = 0
        while game.state.status == "active":
            now += STEP
            seat = game.state.rules.to_act(game.state.table)[0]
            view = seat_view(game, seat, now)
            yield view
            seed = bot_seed(VARIANT, deal, seat)
            command = Random().choose(view, bot_draw(seed, view.game_id, seat, view.version))
            game.act(player_id=f"p{seat}", command=command, command_id=f"m{move}", now=now)
            move += 1


def found(wanted: Callable[[View, CancellationHeartsView], bool], seats: int = 6) -> View:
    """The first position of the seeded games that ``wanted`` describes."""
    for view in positions(seats):
        assert isinstance(view.table, CancellationHeartsView)
        if wanted(view, view.table):
            return view
    raise AssertionError("no such position in the seeded games")


def decide(view: View) -> Command:
    seat = view.seat
    assert seat is not None
    return BOT.choose(view, bot_draw(b"\x07" * 32, view.game_id, seat, view.version))


def played(view: View) -> str:
    command = decide(view)
    assert isinstance(command, PlayCard)
    assert command in view.legal_commands
    return command.card


def hand(view: View) -> tuple[str, ...]:
    return tuple(view.hand or ())


def trick_cards(table: CancellationHeartsView) -> list[str]:
    return [play.card for play in table.trick]


def takes_lead(table: CancellationHeartsView, card: str) -> bool:
    """Whether ``card`` would be the trick's winning card as it stands after it is played."""
    cards = [*trick_cards(table), card]
    return resolve(cards)[1] == len(cards) - 1


def suit_held(view: View, table: CancellationHeartsView) -> list[str]:
    led = SUIT_OF[table.trick[0].card]
    return [card for card in hand(view) if SUIT_OF[card] == led]


def later_seats(view: View, table: CancellationHeartsView) -> int:
    """How many seats play to the trick after this one."""
    played = {play.seat for play in table.trick}
    return sum(
        1
        for seat, size in enumerate(view.hand_sizes)
        if size > 0 and seat != view.seat and seat not in played
    )


def test_it_passes_every_queen_of_spades_it_is_dealt() -> None:
    passes = 0
    for view in positions(6):
        assert isinstance(view.table, CancellationHeartsView)
        if view.table.phase != "passing" or QUEEN not in hand(view):
            continue
        command = decide(view)
        assert isinstance(command, PassCards)
        assert command.cards.count(QUEEN) == hand(view).count(QUEEN), (hand(view), command)
        passes += 1
        if passes == 10:
            return


def test_it_passes_the_highest_cards_of_a_suit_it_passes_from() -> None:
    seen = 0
    for view in positions(6):
        table = view.table
        assert isinstance(table, CancellationHeartsView)
        if table.phase != "passing":
            continue
        command = decide(view)
        assert isinstance(command, PassCards)
        kept = list(hand(view))
        for card in command.cards:
            kept.remove(card)
        for card in command.cards:
            higher_kept = [
                other
                for other in kept
                if SUIT_OF[other] == SUIT_OF[card]
                and other != QUEEN
                and RANK_OF[other] > RANK_OF[card]
            ]
            assert card == QUEEN or not higher_kept, (hand(view), command.cards)
        seen += 1
        if seen == 30:
            return


def test_following_it_ducks_under_the_winning_card_with_its_highest_card_that_stays_under() -> None:
    def wanted(view: View, table: CancellationHeartsView) -> bool:
        if table.phase != "playing" or not table.trick or later_seats(view, table) < 2:
            return False
        held = suit_held(view, table)
        under = [card for card in held if not takes_lead(table, card)]
        return bool(under) and len(under) < len(held) and len({*under}) > 1

    view = found(wanted)
    table = view.table
    card = played(view)
    under = [held for held in suit_held(view, table) if not takes_lead(table, held)]
    assert card in under, (trick_cards(table), hand(view), card)
    assert RANK_OF[card] == max(RANK_OF[held] for held in under), (trick_cards(table), card)


def test_out_of_the_suit_led_it_throws_the_queen_of_spades() -> None:
    view = found(
        lambda v, t: (
            t.phase == "playing"
            and bool(t.trick)
            and SUIT_OF[t.trick[0].card] != "S"
            and not suit_held(v, t)
            and QUEEN in hand(v)
        )
    )
    assert played(view) == QUEEN


def test_taking_the_trick_last_it_takes_it_with_its_highest_card_but_not_the_queen() -> None:
    def wanted(view: View, table: CancellationHeartsView) -> bool:
        if table.phase != "playing" or not table.trick or later_seats(view, table) != 0:
            return False
        held = suit_held(view, table)
        return len({*held}) > 2 and all(takes_lead(table, card) for card in held)

    view = found(wanted)
    table = view.table
    card = played(view)
    safe = [held for held in suit_held(view, table) if held != QUEEN]
    assert card == max(safe, key=RANK_OF.__getitem__), (trick_cards(table), hand(view), card)


def test_it_cancels_the_winning_card_with_its_twin_rather_than_take_points() -> None:
    def wanted(view: View, table: CancellationHeartsView) -> bool:
        if table.phase != "playing" or not table.trick:
            return False
        cards = trick_cards(table)
        best = resolve(cards)[1]
        if best is None or sum(POINTS_OF[card] for card in cards) == 0:
            return False
        twin = cards[best]
        held = suit_held(view, table)
        return twin in held and all(takes_lead(table, card) for card in held if card != twin)

    view = found(wanted, seats=8)
    table = view.table
    cards = trick_cards(table)
    best = resolve(cards)[1]
    assert best is not None
    assert played(view) == cards[best], (cards, hand(view))


def test_it_leads_neither_a_queen_of_spades_nor_a_spade_above_one_that_is_out() -> None:
    """Before hearts are broken no queen of spades has fallen: one it does not hold is out."""

    def wanted(view: View, table: CancellationHeartsView) -> bool:
        if table.phase != "playing" or table.trick or table.hearts_broken:
            return False
        if hand(view).count(QUEEN) == 2:  # no queen out: a high spade is safe
            return False
        leads = {command.card for command in view.legal_commands if isinstance(command, PlayCard)}
        return bool(leads & RISKY_LEADS) and bool(leads - RISKY_LEADS)

    leads = 0
    for view in positions(6):
        assert isinstance(view.table, CancellationHeartsView)
        if not wanted(view, view.table):
            continue
        assert played(view) not in RISKY_LEADS, hand(view)
        leads += 1
        if leads == 20:
            return
    raise AssertionError("too few such leads in the seeded games")


# --- the moon -------------------------------------------------------------------------------------


def moon_view(scores: tuple[int, ...]) -> View:
    """A seat that shot the moon, choosing, with ``scores`` the totals before the hand."""
    view = found(lambda v, t: t.phase == "playing" and v.seat == 0)
    table = view.table
    assert isinstance(table, CancellationHeartsView)
    return msgspec.structs.replace(
        view,
        table=msgspec.structs.replace(table, phase="moon", moon_seat=0),
        scores=scores,
        legal_commands=[ChooseMoon(choice="subtract"), ChooseMoon(choice="add")],
        choice_forms=[],
    )


def test_a_moon_ends_the_match_when_that_makes_it_the_winner() -> None:
    assert decide(moon_view((100, 130, 90, 110, 120, 125))) == ChooseMoon(choice="add")


def test_a_moon_is_subtracted_when_adding_would_leave_another_seat_ahead() -> None:
    assert decide(moon_view((100, 130, 60, 110, 120, 125))) == ChooseMoon(choice="subtract")
