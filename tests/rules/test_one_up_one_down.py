"""One Up One Down (RULES.md §5) as scenarios."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import msgspec
import pytest

from domain import game, game_state
from domain.cards import standard_deck
from domain.commands import Leave, VoteCancel, parse_command
from domain.errors import Failure, RuleViolation
from domain.events import (
    CardPlayed,
    Event,
    GameFinished,
    GameStarted,
    HandDealt,
    PlayerLeft,
    Secret,
)
from domain.fairness import RandomStream
from domain.perspective import PUBLIC, Perspective, redact
from domain.variant import Turn
from domain.variants.one_up_one_down.messages import (
    CardDrawn,
    CardPlayedFaceDown,
    Challenge,
    Challenged,
    ChallengeDeclined,
    ChallengeResolved,
    ChallengeWindowClosed,
    ChallengeWindowExpired,
    Decline,
    EndVoted,
    FirstPlayerDrawn,
    LastCardStood,
    PileCollected,
    PlayDown,
    PlayUp,
    StalemateEnded,
    VoteEnd,
)
from domain.variants.one_up_one_down.rules import OneUpOneDown
from projections.views import view
from tests.rules.scenario import (
    NOW,
    SEED,
    created,
    given,
    play_out,
    player,
    refused,
    refused_creation,
    when,
)

VARIANT = "one-up-one-down"


def table(hands, stock=(), first=0, options=None):
    dealt = HandDealt(
        hand=1,
        dealer=0,
        hands=tuple(Secret(owner=s, value=tuple(hand)) for s, hand in enumerate(hands)),
        rest=Secret(owner=None, value=tuple(stock)),
    )
    return given(
        [
            *created(VARIANT, len(hands), options),
            GameStarted(seat_count=len(hands)),
            dealt,
            FirstPlayerDrawn(rounds=(), seat=first),
        ]
    )


def up(card: str) -> PlayUp:
    return PlayUp(card=card)


def down(card: str, declared: str = "3") -> PlayDown:
    return PlayDown(card=card, declared=declared)


def to_act(state) -> tuple[int, ...]:
    return state.rules.to_act(state.table)


def pile_view(state, perspective):
    return state.rules.public_table(state.table, perspective).pile


HANDS3 = [
    ("8H", "9S", "4D", "JC"),
    ("10C", "6D", "7H", "KS"),
    ("5S", "QD", "AH", "2C"),
]
STOCK = ("3C", "4C", "5C")


def after_eight_up():
    """Seat 0 played 8H face up: target 8, seat 1 must play face down."""
    state, _ = play_out(table(HANDS3, STOCK), [(0, up("8H"))])
    return state


# --- face up, alternation ---------------------------------------------------------------------


def test_the_first_card_is_face_up_and_sets_the_target() -> None:
    state = table(HANDS3, STOCK)
    assert to_act(state) == (0,)
    assert refused(state, 0, down("8H", "8")).code == "must_play_face_up"
    state, events = play_out(state, [(0, up("8H"))])
    assert events == [CardPlayed(seat=0, card="8H")]
    shown = state.rules.public_table(state.table, PUBLIC)
    assert (shown.target, shown.facing, shown.to_play) == ("8", "down", 1)
    assert refused(state, 1, up("10C")).code == "must_play_face_down"
    assert refused(state, 2, down("5S")).code == "not_your_turn"


def test_face_up_below_the_target_stands_but_draws_the_top_of_the_stock() -> None:
    state, _ = play_out(after_eight_up(), [(1, down("10C", "10")), (2, Decline()), (0, Decline())])
    state, events = play_out(state, [(2, up("5S"))])
    assert events[0] == CardPlayed(seat=2, card="5S")
    drawn = events[1]
    assert isinstance(drawn, CardDrawn)
    assert (drawn.seat, drawn.card.owner, drawn.card.value) == (2, 2, "3C")
    assert redact(drawn, Perspective(seat=0)).card.value is None
    assert "3C" in state.table.hands[2]
    assert len(state.table.stock) == 2
    # The card still stands: its true rank is the new target, and the next card goes face down.
    shown = state.rules.public_table(state.table, PUBLIC)
    assert (shown.target, shown.facing, shown.to_play) == ("5", "down", 0)


def test_face_up_below_the_target_with_an_empty_stock_draws_nothing() -> None:
    state, _ = play_out(table(HANDS3), [(0, up("8H")), (1, down("10C", "10"))])
    state, _ = play_out(state, [(2, Decline()), (0, Decline())])
    state, events = play_out(state, [(2, up("5S"))])
    assert events == [CardPlayed(seat=2, card="5S")]
    assert len(state.table.hands[2]) == 3


def test_face_up_equal_or_higher_draws_nothing() -> None:
    state, _ = play_out(table(HANDS3, STOCK), [(0, up("8H")), (1, down("KS", "8"))])
    state, _ = play_out(state, [(2, Decline()), (0, Decline())])
    state, events = play_out(state, [(2, up("2C"))])  # 2 is the highest rank
    assert events == [CardPlayed(seat=2, card="2C")]


# --- face down and challenges -----------------------------------------------------------------


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


HANDS4 = [
    ("8H", "9S", "4D", "JC"),
    ("10C", "6D", "7H", "KS"),
    ("5S", "QD", "AH", "2C"),
    ("3H", "3D", "QS", "AS"),
]


def four_after_face_down(card: str = "6D", declared: str = "10"):
    state, _ = play_out(table(HANDS4, STOCK), [(0, up("8H")), (1, down(card, declared))])
    return state


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


def test_the_deadline_closes_the_window_as_a_server_event() -> None:
    state = four_after_face_down()
    deadline = NOW + timedelta(seconds=15)
    assert state.rules.deadline(state.table) == deadline
    assert game.expire(state, now=deadline - timedelta(microseconds=1), version=50) == []
    with pytest.raises(RuleViolation) as late:  # decided after the expiry: the window is shut
        game.act(state, player_id=player(2), command=Challenge(), now=deadline, version=50)
    assert late.value.code == "no_challenge_window"
    events = game.expire(state, now=deadline, version=50)
    assert events == [
        ChallengeWindowExpired(unanswered=(2, 3, 0)),
        ChallengeWindowClosed(seat=1, declared="10"),
    ]
    state = game_state.fold(state, events)
    assert state.rules.deadline(state.table) is None
    assert to_act(state) == (2,)


def test_at_the_deadline_unanswered_seats_count_as_declining() -> None:
    state, _ = play_out(four_after_face_down(), [(3, Challenge())])
    events = game.expire(state, now=NOW + timedelta(seconds=15), version=50)
    assert events[0] == ChallengeWindowExpired(unanswered=(2, 0))
    assert events[1].challenger == 3
    assert events[2].seat == 1


def test_zero_challenge_seconds_means_no_deadline() -> None:
    state, _ = play_out(
        table(HANDS3, STOCK, options={"challenge_seconds": 0}),
        [(0, up("8H")), (1, down("6D", "10"))],
    )
    assert state.rules.deadline(state.table) is None
    assert game.expire(state, now=NOW + timedelta(days=9), version=50) == []
    assert to_act(state) == (2, 0)


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


# --- winning ----------------------------------------------------------------------------------


def test_a_face_up_last_card_not_below_the_target_wins() -> None:
    state = table([("9S",), ("10C", "6D")], STOCK)
    state, events = play_out(state, [(0, up("9S"))])
    assert events[1:] == [
        LastCardStood(seat=0),
        GameFinished(scores=(1, 0), winners=(0,), seed=SEED.hex()),
    ]
    assert state.status == "finished"
    assert to_act(state) == ()


def test_a_face_up_last_card_below_the_target_draws_instead_of_winning() -> None:
    state, _ = play_out(table([("9S", "4D"), ("KC", "6D")], STOCK), [(0, up("9S"))])
    state, _ = play_out(state, [(1, down("KC", "K")), (0, Decline())])
    state, events = play_out(state, [(0, up("4D"))])
    assert [type(e) for e in events] == [CardPlayed, CardDrawn]
    assert state.status == "active"


def test_a_face_down_last_card_wins_once_its_window_closes_unchallenged() -> None:
    state, _ = play_out(table([("9S", "QD"), ("4C", "6D"), ("5S", "7S")], STOCK), [(0, up("9S"))])
    state, _ = play_out(state, [(1, down("6D", "J"))])
    state, _ = play_out(state, [(2, Decline()), (0, Decline())])
    state, _ = play_out(state, [(2, up("5S")), (0, down("QD", "5"))])
    state, events = play_out(state, [(1, Decline())])
    assert state.status == "active"
    state, events = play_out(state, [(2, Decline())])
    assert events[-3:] == [
        ChallengeWindowClosed(seat=0, declared="5"),
        LastCardStood(seat=0),
        GameFinished(scores=(1, 0, 0), winners=(0,), seed=SEED.hex()),
    ]


def test_a_face_down_last_card_that_survives_a_challenge_wins() -> None:
    state = table([("9S", "QD"), ("4C", "6D"), ("5S", "7S")], STOCK)
    state, _ = play_out(state, [(0, up("9S")), (1, down("6D", "J"))])
    state, _ = play_out(state, [(2, Decline()), (0, Decline()), (2, up("5S"))])
    state, events = play_out(state, [(0, down("QD", "Q")), (1, Challenge())])
    assert events[1:] == [
        Challenged(seat=1),
        ChallengeResolved(
            seat=0, challenger=1, card="QD", declared="Q", target="5", succeeded=False
        ),
        PileCollected(seat=1, shown=("9S", "5S", "QD"), hidden=events[3].hidden),
        LastCardStood(seat=0),
        GameFinished(scores=(1, 0, 0), winners=(0,), seed=SEED.hex()),
    ]
    assert events[3].hidden.owner == 1
    assert events[3].hidden.value == ("6D",)


def test_a_face_down_last_card_caught_lying_takes_the_pile() -> None:
    state = table([("9S", "3D"), ("KC", "6D"), ("5S", "7S")], STOCK)
    state, _ = play_out(state, [(0, up("9S")), (1, down("KC", "K"))])
    state, _ = play_out(state, [(2, Decline()), (0, Decline()), (2, up("5S"))])
    state, events = play_out(state, [(0, down("3D", "7")), (1, Challenge())])
    assert events[-2].succeeded
    assert events[-1].seat == 0
    assert state.status == "active"
    assert sorted(state.table.hands[0]) == sorted(("9S", "KC", "5S", "3D"))
    assert to_act(state) == (0,)


# --- stalemate --------------------------------------------------------------------------------


def test_a_unanimous_vote_once_the_stock_is_empty_gives_the_fewest_cards_the_win() -> None:
    hands = [("9S", "4D", "QC"), ("10C", "6D"), ("5S", "QD", "AH")]
    state = table(hands)
    assert VoteEnd() in state.rules.legal_commands(state.table, 1)
    state, events = play_out(state, [(1, VoteEnd()), (0, VoteEnd())])
    assert events == [EndVoted(seat=1), EndVoted(seat=0)]
    assert refused(state, 0, VoteEnd()).code == "already_voted"
    state, events = play_out(state, [(2, VoteEnd())])
    assert events[1:] == [
        StalemateEnded(reason="vote", hand_sizes=(3, 2, 3), winners=(1,)),
        GameFinished(scores=(0, 1, 0), winners=(1,), seed=SEED.hex()),
    ]


def test_no_vote_while_the_stock_holds_cards_and_a_play_clears_the_votes() -> None:
    """Judgement call one-up-one-down/votes-reset-on-play."""
    assert refused(table(HANDS3, STOCK), 1, VoteEnd()).code == "stock_not_empty"
    state, _ = play_out(table(HANDS3), [(1, VoteEnd()), (2, VoteEnd()), (0, up("8H"))])
    assert state.rules.public_table(state.table, PUBLIC).end_votes == ()
    state, _ = play_out(state, [(1, down("KS", "K"))])
    assert refused(state, 2, VoteEnd()).code == "challenge_window_open"


def test_ties_for_the_fewest_cards_share_the_win_and_left_seats_do_not_count() -> None:
    hands = [("4D", "QC"), ("10C",), ("5S", "QD"), ("3H",)]
    state, events = play_out(table(hands), [(1, Leave()), (3, Leave())])
    state, events = play_out(state, [(0, VoteEnd()), (2, VoteEnd())])
    assert events[-2] == StalemateEnded(reason="vote", hand_sizes=(2, 1, 2, 1), winners=(0, 2))
    assert events[-1].scores == (1, 0, 1, 0)


def test_the_play_cap_ends_the_game_the_same_way() -> None:
    state = table(HANDS3, STOCK, options={"max_plays": 3})
    state, _ = play_out(state, [(0, up("8H")), (1, down("10C", "10"))])
    state, _ = play_out(state, [(2, Decline()), (0, Decline())])
    state, events = play_out(state, [(2, up("5S"))])  # below 10: draws 3C, then the cap
    assert events[-2] == StalemateEnded(reason="cap", hand_sizes=(3, 3, 4), winners=(0, 1))
    assert state.status == "finished"


def test_a_capped_face_down_play_waits_for_its_window() -> None:
    """Judgement call one-up-one-down/cap-counts-card-plays."""
    state = table(HANDS3, STOCK, options={"max_plays": 2})
    state, _ = play_out(state, [(0, up("8H")), (1, down("10C", "10"))])
    assert state.status == "active"
    state, events = play_out(state, [(2, Challenge())])
    assert events[-2] == StalemateEnded(reason="cap", hand_sizes=(3, 3, 6), winners=(0, 1))


def test_a_face_up_last_card_below_the_target_with_the_stock_empty_stands_and_wins() -> None:
    """RULES.md §5 Winning, resolved (issue 13, item 4): with nothing to draw, the last card
    stands even below the target, and its player wins."""
    state, _ = play_out(table([("9S", "4D"), ("KC", "5D")]), [(0, up("9S"))])
    state, _ = play_out(state, [(1, down("KC", "K")), (0, Decline())])
    state, events = play_out(state, [(0, up("4D"))])  # 4 is below the target K; no stock
    assert events == [
        CardPlayed(seat=0, card="4D"),
        LastCardStood(seat=0),
        GameFinished(scores=(1, 0), winners=(0,), seed=SEED.hex()),
    ]
    assert state.status == "finished"


def test_a_face_up_last_card_below_the_target_draws_while_the_stock_lasts() -> None:
    state, _ = play_out(table([("9S", "4D"), ("KC", "5D")], stock=("7C",)), [(0, up("9S"))])
    state, _ = play_out(state, [(1, down("KC", "K")), (0, Decline())])
    state, events = play_out(state, [(0, up("4D"))])
    assert [type(e) for e in events] == [CardPlayed, CardDrawn]
    assert state.status == "active"
    assert state.table.hands[0] == ("7C",)


def test_a_table_where_nobody_still_in_holds_a_card_ends_in_a_stalemate() -> None:
    """A safety net, not a judgement call: cards only run out for a seat whose last card stood
    (it has won), so this takes a deal that gave two seats nothing. Judgement call
    one-up-one-down/blocked-ends-like-stalemate."""
    state = table([(), (), ("5S", "6S")])
    state, events = play_out(state, [(2, Leave())])
    assert events[-2:] == [
        StalemateEnded(reason="blocked", hand_sizes=(0, 0, 2), winners=(0, 1)),
        GameFinished(scores=(1, 1, 0), winners=(0, 1), seed=SEED.hex()),
    ]


# --- leaving ----------------------------------------------------------------------------------


def test_a_seat_that_left_is_not_awaited_and_is_skipped() -> None:
    state, _ = play_out(four_after_face_down(), [(2, Leave())])
    assert to_act(state) == (3, 0)
    state, events = play_out(state, [(3, Decline()), (0, Decline())])
    assert isinstance(events[-1], ChallengeWindowClosed)
    assert to_act(state) == (3,)  # seat 2 is skipped


def test_the_last_awaited_seat_leaving_closes_the_window() -> None:
    """Judgement call one-up-one-down/leaver-answer-not-awaited."""
    state, _ = play_out(four_after_face_down(), [(2, Decline()), (3, Decline())])
    state, events = play_out(state, [(0, Leave())])
    assert events == [PlayerLeft(seat=0), ChallengeWindowClosed(seat=1, declared="10")]


def test_a_pending_challenge_decides_when_the_seat_before_it_leaves() -> None:
    state, _ = play_out(four_after_face_down(), [(3, Challenge())])
    state, events = play_out(state, [(2, Leave())])
    assert events[1].challenger == 3


def test_the_player_of_the_face_down_card_leaving_closes_its_window() -> None:
    """Judgement call one-up-one-down/leaver-card-stands."""
    state, events = play_out(four_after_face_down(), [(1, Leave())])
    assert events == [PlayerLeft(seat=1), ChallengeWindowClosed(seat=1, declared="10")]
    assert to_act(state) == (2,)


def test_the_last_seat_still_in_wins_by_forfeit() -> None:
    """RULES.md Leaving (issue 13, item 5): the one seat left wins, reason forfeit. Judgement calls
    one-up-one-down/forfeit-scores-zero, common/forfeit-ends-at-once."""
    state, events = play_out(four_after_face_down(), [(1, Leave()), (2, Leave()), (3, Leave())])
    assert events[-2:] == [
        PlayerLeft(seat=3),
        GameFinished(scores=(0, 0, 0, 0), winners=(0,), seed=SEED.hex(), reason="forfeit"),
    ]
    assert state.status == "finished"


def test_cancelling_by_vote_works_as_for_every_variant() -> None:
    state, _ = play_out(after_eight_up(), [(0, VoteCancel()), (1, VoteCancel())])
    assert state.status == "active"
    state, events = play_out(state, [(2, VoteCancel())])
    assert state.status == "cancelled"
    assert events[-1].by == "vote"


# --- dealing, options, wire -------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_deal_and_the_high_card_draw(seats: int) -> None:
    """Judgement call one-up-one-down/first-player-fresh-deck."""
    rules = OneUpOneDown()
    options = msgspec.convert({}, rules.options_type)
    for game_id in ("a", "b", "c", "d", "e", "f"):
        stream = RandomStream(SEED, game_id, [""] * seats)
        dealt, drawn = rules.start(rules.setup(options, seats), Turn(NOW, stream, 1))
        assert all(len(hand.value) == 7 for hand in dealt.hands)
        assert all(hand.owner == seat for seat, hand in enumerate(dealt.hands))
        assert dealt.rest.owner is None
        assert len(dealt.rest.value) == 52 - 7 * seats
        cards = [c for hand in dealt.hands for c in hand.value] + list(dealt.rest.value)
        assert Counter(cards) == Counter(standard_deck())
        assert isinstance(drawn, FirstPlayerDrawn)
        contenders = set(range(seats))
        order = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
        for round_draws in drawn.rounds:
            assert {d.seat for d in round_draws} == contenders
            best = max(order.index(d.rank) for d in round_draws)
            contenders = {d.seat for d in round_draws if order.index(d.rank) == best}
        assert contenders == {drawn.seat}


def test_a_tied_high_card_draw_is_drawn_again() -> None:
    rules = OneUpOneDown()
    options = msgspec.convert({}, rules.options_type)
    tied = 0
    for index in range(60):
        stream = RandomStream(SEED, f"tie-{index}", [""] * 4)
        _dealt, drawn = rules.start(rules.setup(options, 4), Turn(NOW, stream, 1))
        if len(drawn.rounds) > 1:
            tied += 1
            assert len(drawn.rounds[1]) < 4
    assert tied > 0


def test_an_omitted_declaration_is_three() -> None:
    command = parse_command(OneUpOneDown.commands, {"type": "play_down", "card": "7H"})
    assert command == PlayDown(card="7H", declared="3")
    with pytest.raises(RuleViolation) as bad:
        parse_command(OneUpOneDown.commands, {"type": "play_down", "card": "7H", "declared": "1"})
    assert bad.value.code == "invalid_command"
    assert refused(after_eight_up(), 1, PlayDown(card="6D", declared="Z")).code == "unknown_rank"


@pytest.mark.parametrize(
    ("command", "code", "failure"),
    [
        (down("QD", "Q"), "card_not_in_hand", Failure.CONFLICT),
        (down("ZZ", "Q"), "unknown_card", Failure.INVALID),
    ],
)
def test_bad_cards_are_refused(command, code: str, failure: Failure) -> None:
    error = refused(after_eight_up(), 1, command)
    assert (error.code, error.failure) == (code, failure)


@pytest.mark.parametrize(
    ("seats", "options", "code"),
    [
        (1, None, "invalid_seat_count"),
        (5, None, "invalid_seat_count"),
        (3, {"challenge_seconds": -1}, "invalid_option"),
        (3, {"max_plays": 0}, "invalid_option"),
        (3, {"tiebreak": "shared"}, "unknown_option"),
    ],
)
def test_creation_is_validated(seats: int, options, code: str) -> None:
    refused = refused_creation(VARIANT, seats, options)
    assert (refused.code, refused.failure) == (code, Failure.INVALID)


def test_options_default_to_the_rules_and_are_stored_in_the_creation_event() -> None:
    assert created(VARIANT, 2)[0].options == {"challenge_seconds": 15, "max_plays": 300}


def test_legal_commands_are_one_card_per_rank() -> None:
    """Judgement call one-up-one-down/one-card-per-rank."""
    state = table([("8H", "8S", "4D"), ("10C", "6D")])
    commands = state.rules.legal_commands(state.table, 0)
    assert commands == [up("4D"), up("8H"), VoteEnd()]
    state, _ = play_out(state, [(0, up("4D"))])
    downs = [c for c in state.rules.legal_commands(state.table, 1) if isinstance(c, PlayDown)]
    assert len(downs) == 2 * 13
    assert {c.card for c in downs} == {"10C", "6D"}


# --- non-interference -------------------------------------------------------------------------


def _served(state, perspective, events: list[Event]) -> bytes:
    shown = view(state, version=0, chain_head="", perspective=perspective)
    return msgspec.json.encode([shown, [redact(e, perspective) for e in events]])


def _frames(perspective: Perspective, hidden: str, spare: str) -> list[bytes]:
    hands = [("8H", "9S", "AS"), (hidden, "KS", "JD"), ("5S", "QD", "AH")]
    state = table(hands, ("3C", "4C", spare))
    moves = [
        (0, up("8H")),
        (1, down(hidden, "10")),
        (2, Decline()),
        (0, Decline()),
        (2, up("QD")),
        (0, down("AS", "A")),
        (2, Decline()),
        (1, Challenge()),  # honest: the owner of the hidden card takes the pile back
    ]
    frames = []
    events: list[Event] = []
    for seat, command in moves:
        new = when(state, seat, command)
        state = game_state.fold(state, new)
        events += new
        frames.append(_served(state, perspective, events))
    return frames


@pytest.mark.parametrize("observer", [None, 0, 2])
def test_another_seats_face_down_card_does_not_change_what_an_observer_gets(observer) -> None:
    perspective = PUBLIC if observer is None else Perspective(seat=observer)
    assert _frames(perspective, "7H", "9C") == _frames(perspective, "9C", "7H")


def test_the_owner_of_the_face_down_card_does_see_it() -> None:
    owner = Perspective(seat=1)
    assert _frames(owner, "7H", "9C") != _frames(owner, "9C", "7H")


def test_an_end_vote_waits_for_the_open_window() -> None:
    """Judgement call one-up-one-down/vote-needs-closed-window."""
    state, _ = play_out(table(HANDS3), [(0, up("8H")), (1, down("10C", "10"))])
    assert refused(state, 2, VoteEnd()).code == "challenge_window_open"
    assert VoteEnd() not in state.rules.legal_moves(state.table, 2)
    state, _ = play_out(state, [(2, Decline()), (0, Decline())])
    assert VoteEnd() in state.rules.legal_moves(state.table, 2)
