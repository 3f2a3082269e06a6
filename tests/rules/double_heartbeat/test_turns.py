"""Double Heartbeat (RULES.md §2): passing, beating and going out, as scenarios."""

from __future__ import annotations

from domain.events import TrickWon
from domain.variants.double_heartbeat.messages import LeadInherited, PlayerWentOut, TurnPassed
from tests.rules.double_heartbeat.scenarios import (
    PASS,
    RULES,
    WON_FIRST_TRICK,
    deal,
    play,
    to_act,
    view,
)
from tests.rules.scenario import play_out, refused


def test_a_pass_does_not_lock_a_player_out_and_the_leader_cannot_pass() -> None:
    state = deal(["3S 6S 9S", "7S 8S", "5H 10H", "4D JD"])
    assert refused(state, 0, PASS).code == "leader_cannot_pass"
    assert refused(state, 1, play("7S")).code == "not_your_turn"
    state, _ = play_out(state, [(0, play("3S")), (1, PASS), (2, play("5H")), (3, PASS)])
    state, events = play_out(state, [(0, play("6S")), (1, play("7S"))])  # seat 1 passed before
    assert events[-1].seat == 1
    state, events = play_out(state, [(2, PASS), (3, PASS), (0, PASS)])
    assert events[-1] == TrickWon(trick=1, seat=1, cards=("3S", "5H", "6S", "7S"), points=0)
    assert to_act(state) == (1,)


def test_wrong_type_and_too_low_are_refused() -> None:
    state, _ = play_out(deal(["5S 5H 9S", "6S 4S 4H 6H", "7S 8S", "7H 8H"]), [(0, play("5S 5H"))])
    assert refused(state, 1, play("6S")).code == "wrong_combination"
    assert refused(state, 1, play("4S 4H")).code == "combination_too_low"
    state, events = play_out(state, [(1, play("6S 6H"))])
    assert events[0].combination == "pair"


def test_eight_of_a_kind_is_never_beaten() -> None:
    threes = "3S 3S 3H 3H 3D 3D 3C 3C"
    fours = "4S 4S 4H 4H 4D 4D 4C 4C"
    state = deal([threes + " 5S", fours + " 6S", "9S 10S JS QS KS 7H", "8S 8H"])
    state, events = play_out(state, [(0, play(threes))])
    assert events[0].bonus == 20
    assert refused(state, 1, play(fours)).code == "combination_too_low"
    assert refused(state, 2, play("9S 10S JS QS KS")).code == "not_your_turn"
    assert RULES.legal_commands(state.table, 1) == [PASS]


def test_going_out_passes_the_lead_on_and_no_alliance_forms_on_an_inherited_lead() -> None:
    state = deal(["3S 2S", "5S 7S", "5H 8H", "6H 9H"])
    state, events = play_out(state, [*WON_FIRST_TRICK, (0, play("2S"))])
    assert events[-1] == PlayerWentOut(seat=0, place=1)
    assert to_act(state) == (1,)
    state, events = play_out(state, [(1, PASS), (2, PASS), (3, PASS)])
    assert events[-3:] == [
        TurnPassed(seat=3),
        TrickWon(trick=2, seat=0, cards=("2S",), points=0),
        LeadInherited(seat=1, from_seat=0),
    ]
    assert to_act(state) == (1,)
    assert view(state).lead_kind == "inherited"
    state, _ = play_out(state, [(1, play("5S"))])
    assert refused(state, 2, play("5H")).code == "no_alliance_on_this_lead"
    # The hand goes on with three players: seat 0 is skipped from now on.
    state, _ = play_out(state, [(2, play("8H")), (3, play("9H"))])
    assert to_act(state) == (1,)


def test_the_lead_skips_every_player_who_has_gone_out() -> None:
    state = deal(["3S 2S", "4S", "5H 6H", "4H 7H"])
    moves = [(0, play("3S")), (1, play("4S"))]  # seat 1 is out
    moves += [(2, PASS), (3, PASS), (0, play("2S"))]  # seat 0 is out on top
    state, events = play_out(state, moves)
    assert [e for e in events if isinstance(e, PlayerWentOut)] == [
        PlayerWentOut(seat=1, place=1),
        PlayerWentOut(seat=0, place=2),
    ]
    state, events = play_out(state, [(2, PASS), (3, PASS)])
    assert events[-1] == LeadInherited(seat=2, from_seat=0)
