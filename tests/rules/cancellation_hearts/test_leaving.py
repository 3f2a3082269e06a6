"""Cancellation Hearts (RULES.md §4): seats that leave during the pass or the play, as scenarios."""

from __future__ import annotations

from domain import game_state
from domain.commands import Command, Leave
from domain.events import GameFinished, GameStarted, PlayerLeft
from domain.perspective import PUBLIC
from domain.variant import Turn
from domain.variants.cancellation_hearts.messages import PassCards, PassesDelivered, TrickResolved
from tests.rules.cancellation_hearts.scenarios import (
    RULES,
    SIX,
    VARIANT,
    of_type,
    passing,
    playing,
    plays,
    to_act,
)
from tests.rules.scenario import NOW, SEED, created, given, play_out


def test_a_seat_leaving_during_the_pass_takes_no_part_in_it() -> None:
    """Judgement calls cancellation-hearts/pass-among-seated,
    cancellation-hearts/leaver-pass-returns."""
    state = passing(SIX)
    state, _ = play_out(state, [(3, PassCards(cards=SIX[3])), (3, Leave())])
    assert RULES.hand(state.table, 3) == SIX[3]  # its pass came back
    moves: list[tuple[int, Command]] = [(s, PassCards(cards=SIX[s])) for s in (0, 1, 2, 4)]
    state, events = play_out(state, moves)
    assert not of_type(events, PassesDelivered)
    state, events = play_out(state, [(5, PassCards(cards=SIX[5]))])
    (delivered,) = of_type(events, PassesDelivered)
    assert delivered.senders == (5, 0, 1, None, 2, 4)
    assert delivered.received[3].unwrap() == ()
    assert delivered.received[4].unwrap() == SIX[2]


def test_the_last_pass_awaited_leaving_delivers_the_others() -> None:
    state = passing(SIX)
    moves: list[tuple[int, Command]] = [(s, PassCards(cards=SIX[s])) for s in range(5)]
    state, _ = play_out(state, [*moves, (5, Leave())])
    assert RULES.public_table(state.table, PUBLIC).phase == "playing"
    assert RULES.hand(state.table, 0) == SIX[4]


def test_a_seat_that_left_is_skipped_in_play_and_its_card_still_counts() -> None:
    """Judgement call cancellation-hearts/leaver-card-stays."""
    hands = [("5C", "2D"), ("2C", "3D"), ("3C", "4D"), ("AC", "5D"), ("4C", "6D"), ("6C", "7D")]
    state, _ = plays(playing(hands), (1, "2C"), (2, "3C"), (3, "AC"))
    state, events = play_out(state, [(3, Leave())])
    assert events == [PlayerLeft(seat=3)]
    state, events = plays(state, (4, "4C"), (5, "6C"), (0, "5C"))
    (resolved,) = of_type(events, TrickResolved)
    assert resolved.winner == 3
    assert to_act(state) == (4,)  # the winner left: the next seat at the table leads


def test_the_last_awaited_player_leaving_completes_the_trick() -> None:
    hands = [("5C", "2D"), ("2C", "3D"), ("3C", "4D"), ("AC", "5D"), ("4C", "6D"), ("6C", "7D")]
    state, _ = plays(playing(hands), (1, "2C"), (2, "3C"), (3, "AC"), (4, "4C"), (5, "6C"))
    _state, events = play_out(state, [(0, Leave())])
    assert [type(e) for e in events] == [PlayerLeft, TrickResolved]
    assert events[1].winner == 3


def test_with_one_seat_left_at_the_table_the_match_ends_and_leavers_never_win() -> None:
    state = passing(SIX)
    state, events = play_out(state, [(s, Leave()) for s in range(5)])
    finished = events[-1]
    assert finished == GameFinished(
        scores=(0,) * 6, winners=(5,), seed=SEED.hex(), reason="forfeit"
    )


def test_leavers_are_dealt_nothing() -> None:
    """Judgement call cancellation-hearts/deal-to-seated."""
    state = given([*created(VARIANT, 7), GameStarted(seat_count=7)])
    state = game_state.fold(state, [PlayerLeft(seat=2)])
    (deal,) = RULES.start(state.table, Turn(NOW, state.stream, 1))
    sizes = [len(h.unwrap()) for h in deal.hands]
    assert sizes == [17, 17, 0, 17, 17, 17, 17]
    assert len(deal.rest.unwrap()) == 2
