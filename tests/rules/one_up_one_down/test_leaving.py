"""One Up One Down (RULES.md §5): seats that leave, and cancelling by vote, as scenarios."""

from __future__ import annotations

from domain.commands import Leave, VoteCancel
from domain.events import GameFinished, PlayerLeft
from domain.variants.one_up_one_down.messages import Challenge, ChallengeWindowClosed, Decline
from tests.rules.one_up_one_down.scenarios import after_eight_up, four_after_face_down, to_act
from tests.rules.scenario import SEED, play_out


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
