"""Double Heartbeat (RULES.md §2): seats that leave, as scenarios."""

from __future__ import annotations

from domain.commands import Leave
from domain.events import GameFinished, HandDealt, PlayerLeft, TrickWon
from domain.variants.double_heartbeat.messages import HandSettled, LeadInherited
from tests.rules.double_heartbeat.scenarios import (
    BURY_HANDS,
    LEAVE_HANDS,
    PASS,
    deal,
    play,
    to_act,
    view,
)
from tests.rules.scenario import SEED, play_out


def test_a_seat_that_left_is_skipped() -> None:
    """Judgement call double-heartbeat/leaver-skipped."""
    state, events = play_out(deal(LEAVE_HANDS), [(0, play("3S")), (1, Leave())])
    assert events[-1:] == [PlayerLeft(seat=1)]
    assert to_act(state) == (2,)
    state, events = play_out(state, [(2, PASS), (3, PASS)])
    assert events[-1] == TrickWon(trick=1, seat=0, cards=("3S",), points=0)


def test_a_leader_who_leaves_passes_the_lead_on() -> None:
    _state, events = play_out(deal(LEAVE_HANDS), [(0, Leave())])
    assert events == [PlayerLeft(seat=0), LeadInherited(seat=1, from_seat=0)]


def test_a_play_still_wins_after_its_player_leaves() -> None:
    """Judgement call double-heartbeat/leaver-play-stands."""
    state, _ = play_out(deal(LEAVE_HANDS), [(0, play("3S")), (0, Leave())])
    assert to_act(state) == (1,)
    _state, events = play_out(state, [(1, PASS), (2, PASS), (3, PASS)])
    assert events[-2:] == [
        TrickWon(trick=1, seat=0, cards=("3S",), points=0),
        LeadInherited(seat=1, from_seat=0),
    ]


def test_leaving_as_the_last_to_pass_ends_the_trick() -> None:
    moves = [(0, play("3S")), (1, PASS), (2, PASS), (3, Leave())]
    _state, events = play_out(deal(LEAVE_HANDS), moves)
    assert events[-2:] == [PlayerLeft(seat=3), TrickWon(trick=1, seat=0, cards=("3S",), points=0)]


def test_when_one_seated_player_holds_cards_the_hand_ends() -> None:
    """Judgement call double-heartbeat/leaver-ends-hand: with two seats still at the table, the
    hand ends once only one of them holds cards; that player is last (−5)."""
    state = deal(["3S 4S", "5S", "7S 8S"], options={"dealer_exchange": "none", "hands": 1})
    state, events = play_out(state, [(0, play("3S")), (1, play("5S")), (2, Leave())])
    assert events[-3:] == [
        PlayerLeft(seat=2),
        HandSettled(hand=1, order=(1,), last=0, buried=(), points=(-5, 10, 0)),
        GameFinished(scores=(-5, 10, 0), winners=(1,), seed=SEED.hex()),
    ]
    assert state.status == "finished"


def test_a_lone_player_wins_by_forfeit_and_is_not_scored_last() -> None:
    """RULES.md Leaving (issue 13, item 5): when fewer than two seats remain the game ends with
    reason forfeit; the hand in play is not settled, so the last seat is not given −5. Judgement
    call common/forfeit-ends-at-once."""
    state = deal(["3S 4S", "5S 6S", "7S 8S"], options={"dealer_exchange": "none", "hands": 3})
    state, events = play_out(state, [(0, play("3S")), (1, Leave()), (2, Leave())])
    assert events[-2:] == [
        PlayerLeft(seat=2),
        GameFinished(scores=(0, 0, 0), winners=(0,), seed=SEED.hex(), reason="forfeit"),
    ]
    assert state.status == "finished"


def test_a_dealer_who_leaves_before_burying_buries_nothing() -> None:
    """Judgement call double-heartbeat/dealer-leaves-bury."""
    state, events = play_out(deal(BURY_HANDS), [(0, Leave())])
    assert events == [PlayerLeft(seat=0), LeadInherited(seat=1, from_seat=0)]
    assert (view(state).phase, view(state).buried_count, to_act(state)) == ("play", 0, (1,))


def test_the_deal_moves_to_the_next_seat_still_at_the_table() -> None:
    """Judgement call double-heartbeat/dealer-skips-leavers: seat 1 has left, so the deal
    passes from seat 0 to seat 2."""
    state = deal(["3S 4S", "5S", "6S", "7S 8S"], options={"hands": 2})
    moves = [(1, Leave()), (0, play("3S")), (2, play("6S")), (3, play("7S")), (0, PASS)]
    state, events = play_out(state, [*moves, (3, play("8S"))])
    settled, dealt = events[-2:]
    assert settled == HandSettled(hand=1, order=(2, 3), last=0, buried=(), points=(-5, 0, 10, 5))
    assert isinstance(dealt, HandDealt) and (dealt.hand, dealt.dealer) == (2, 2)
