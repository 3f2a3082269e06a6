"""One Up One Down (RULES.md §5): cards played face down and their challenges, as scenarios."""

from __future__ import annotations

from datetime import timedelta

import msgspec

from domain.events import CardPlayed
from domain.perspective import PUBLIC, Perspective, redact
from domain.variants.one_up_one_down.messages import (
    CardPlayedFaceDown,
    Challenge,
    Challenged,
    ChallengeDeclined,
    ChallengeResolved,
    ChallengeWindowClosed,
    Decline,
    PileCollected,
    VoteEnd,
)
from projections.views import view
from tests.rules.one_up_one_down.scenarios import (
    after_eight_up,
    down,
    four_after_face_down,
    to_act,
    up,
)
from tests.rules.scenario import NOW, play_out, refused


def pile_view(state, perspective):
    return state.rules.public_table(state.table, perspective).pile


def test_an_honest_face_down_card_that_nobody_challenges_sets_the_declared_target() -> None:
    state, events = play_out(after_eight_up(), [(1, down("10C", "10"))])
    played = events[0]
    assert isinstance(played, CardPlayedFaceDown)
    assert (played.declared, played.target, played.deadline) == (
        "10",
        "8",
        NOW + timedelta(seconds=15),
    )
    # The window waits for both other seats, in turn order after the player.
    assert to_act(state) == (2, 0)
    assert state.rules.legal_commands(state.table, 2) == [Challenge(), Decline()]
    assert state.rules.legal_commands(state.table, 1) == []
    assert refused(state, 2, up("5S")).code == "challenge_window_open"
    state, events = play_out(state, [(2, Decline())])
    assert events == [ChallengeDeclined(seat=2)]
    assert to_act(state) == (0,)
    state, events = play_out(state, [(0, Decline())])
    assert events == [ChallengeDeclined(seat=0), ChallengeWindowClosed(seat=1, declared="10")]
    shown = state.rules.public_table(state.table, PUBLIC)
    assert (shown.target, shown.facing, shown.to_play, shown.challenge) == ("10", "up", 2, None)
    assert refused(state, 0, Challenge()).code == "no_challenge_window"


def test_a_lie_nobody_challenges_stands_and_stays_hidden() -> None:
    state, _ = play_out(after_eight_up(), [(1, down("6D", "10")), (2, Decline()), (0, Decline())])
    assert state.rules.public_table(state.table, PUBLIC).target == "10"
    for viewer in (PUBLIC, Perspective(seat=0), Perspective(seat=2)):
        assert pile_view(state, viewer)[-1].card is None
        served = msgspec.json.encode(view(state, version=1, chain_head="", perspective=viewer))
        assert b'"6D"' not in served
    assert pile_view(state, Perspective(seat=1))[-1].card == "6D"


def test_an_honest_card_challenged_sends_the_pile_to_the_challenger() -> None:
    """Judgement call one-up-one-down/new-round-target-3."""
    state, _ = play_out(after_eight_up(), [(1, down("10C", "10"))])
    state, events = play_out(state, [(2, Challenge())])
    # Seat 2 is first in turn order after seat 1: the outcome is certain at once.
    assert events[0] == Challenged(seat=2)
    assert events[1] == ChallengeResolved(
        seat=1, challenger=2, card="10C", declared="10", target="8", succeeded=False
    )
    collected = events[2]
    assert isinstance(collected, PileCollected)
    assert (collected.seat, collected.shown, collected.hidden.value) == (2, ("8H", "10C"), ())
    assert len(events) == 3
    assert sorted(state.table.hands[2]) == sorted(("5S", "QD", "AH", "2C", "8H", "10C"))
    shown = state.rules.public_table(state.table, PUBLIC)
    assert (shown.to_play, shown.facing, shown.target, shown.round) == (2, "up", "3", 2)
    assert shown.pile == ()


def test_a_lie_challenged_sends_the_pile_to_the_liar() -> None:
    state, events = play_out(after_eight_up(), [(1, down("6D", "10")), (2, Challenge())])
    assert events[2] == ChallengeResolved(
        seat=1, challenger=2, card="6D", declared="10", target="8", succeeded=True
    )
    assert events[3].seat == 1
    assert sorted(state.table.hands[1]) == sorted(("10C", "7H", "KS", "8H", "6D"))
    assert to_act(state) == (1,)
    # The taker starts a new round face up; the first card sets the target (no draw).
    state, events = play_out(state, [(1, up("6D"))])
    assert events == [CardPlayed(seat=1, card="6D")]


def test_a_true_declaration_below_the_target_loses_the_challenge() -> None:
    _state, events = play_out(after_eight_up(), [(1, down("7H", "7")), (2, Challenge())])
    assert events[2] == ChallengeResolved(
        seat=1, challenger=2, card="7H", declared="7", target="8", succeeded=True
    )
    assert events[3].seat == 1


def test_a_later_challenger_waits_for_the_seats_before_it() -> None:
    state, _ = play_out(after_eight_up(), [(1, down("6D", "10"))])
    state, events = play_out(state, [(0, Challenge())])
    assert events == [Challenged(seat=0)]
    assert to_act(state) == (2,)
    state, events = play_out(state, [(2, Decline())])
    assert events[1].challenger == 0
    assert events[2].seat == 1


def test_of_two_challengers_the_first_in_turn_order_after_the_player_has_priority() -> None:
    state, events = play_out(four_after_face_down(), [(3, Challenge())])
    assert events == [Challenged(seat=3)]
    assert to_act(state) == (2, 0)
    state, events = play_out(state, [(2, Challenge())])
    assert events[1].challenger == 2
    assert events[2].seat == 1  # a lie: the player takes the pile
    # Honest card: the challenger with priority takes the pile, not the other one.
    state, events = play_out(
        four_after_face_down("10C", "10"), [(3, Challenge()), (2, Challenge())]
    )
    assert (events[2].challenger, events[3].seat) == (2, 2)


def test_a_challenge_decides_once_everybody_before_it_has_declined() -> None:
    state, _ = play_out(four_after_face_down(), [(3, Challenge())])
    state, events = play_out(state, [(2, Decline())])
    # Seat 0 comes after seat 3 in turn order from seat 1: its answer cannot change anything.
    assert events[1].challenger == 3
    assert to_act(state) == (1,)


def test_each_seat_answers_once_and_never_its_own_card() -> None:
    state, _ = play_out(four_after_face_down(), [(3, Decline())])
    assert refused(state, 3, Challenge()).code == "already_answered"
    assert refused(state, 1, Challenge()).code == "own_card"
    assert refused(state, 1, VoteEnd()).code == "stock_not_empty"


def test_the_face_down_card_is_turned_up_by_the_resolution_only() -> None:
    state, events = play_out(after_eight_up(), [(1, down("6D", "10"))])
    for viewer in (PUBLIC, Perspective(seat=0), Perspective(seat=2)):
        assert redact(events[0], viewer).card.value is None
        assert pile_view(state, viewer)[-1].card is None
    assert redact(events[0], Perspective(seat=1)).card.value == "6D"
    _, events = play_out(state, [(2, Challenge())])
    assert redact(events[1], PUBLIC).card == "6D"


def test_hidden_cards_of_a_collected_pile_go_to_the_taker_only() -> None:
    state, _ = play_out(after_eight_up(), [(1, down("6D", "10")), (2, Decline()), (0, Decline())])
    state, _ = play_out(state, [(2, up("AH")), (0, down("4D", "K"))])
    state, events = play_out(state, [(1, Challenge())])
    collected = events[2]
    assert collected.seat == 0  # 4 is not K
    assert collected.shown == ("8H", "AH", "4D")
    assert collected.hidden.owner == 0
    assert collected.hidden.value == ("6D",)
    assert redact(collected, Perspective(seat=2)).hidden.value is None
