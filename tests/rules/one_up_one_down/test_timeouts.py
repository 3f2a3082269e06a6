"""One Up One Down (RULES.md §5): the challenge window's deadline, as scenarios."""

from __future__ import annotations

from datetime import timedelta

import pytest

from domain import game, game_state
from domain.errors import RuleViolation
from domain.variants.one_up_one_down.messages import (
    Challenge,
    ChallengeWindowClosed,
    ChallengeWindowExpired,
)
from tests.rules.one_up_one_down.scenarios import (
    HANDS3,
    STOCK,
    down,
    four_after_face_down,
    table,
    to_act,
    up,
)
from tests.rules.scenario import NOW, play_out, player


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
