"""Heartbeat (RULES.md §1): seats that leave, as scenarios."""

from __future__ import annotations

from domain.commands import Leave
from domain.events import GameFinished, PlayerLeft
from domain.perspective import PUBLIC
from domain.turns import Play
from domain.variants.heartbeat.messages import ChoicesRevealed, RoundScored
from tests.rules.heartbeat.scenarios import act, choose, heartbeat, moves, refused, reveal, scored
from tests.rules.scenario import SEED


def test_a_seat_that_left_is_not_awaited_and_its_choice_is_void() -> None:
    """Judgement call heartbeat/leaver-choice-void."""
    state, _ = moves(heartbeat(), (1, choose("QD")), (0, choose("4C")))
    state, events = act(state, 1, Leave())
    assert events == [PlayerLeft(seat=1)]  # seat 2 is still awaited
    assert state.rules.to_act(state.table) == (2,)
    state, events = act(state, 2, choose("5D"))
    assert events[-2:] == [
        ChoicesRevealed(round=1, plays=(Play(0, "4C"), Play(2, "5D"))),
        RoundScored(round=1, tempo=None, winners=(2,), chips=(0, 0, 1)),
    ]
    assert state.rules.to_act(state.table) == (0, 2)
    assert refused(state, 1, choose("7D")).code == "player_left"


def test_leaving_as_the_last_awaited_seat_closes_the_round() -> None:
    state, _ = moves(heartbeat(), (0, choose("KS")), (1, choose("QD")))
    _, events = act(state, 2, Leave())
    assert [type(e) for e in events] == [PlayerLeft, ChoicesRevealed, RoundScored]
    assert scored(events).winners == (0, 1)


def test_leaving_during_the_reveal_lets_choosing_begin() -> None:
    state = heartbeat(("reveal", "double", "double"))
    state, _ = moves(state, (0, reveal("KS")), (1, reveal("2C")), (2, Leave()))
    assert state.rules.public_table(state.table, PUBLIC).phase == "choose"
    assert state.rules.to_act(state.table) == (0, 1)


def test_when_one_seat_is_left_it_wins_by_forfeit_with_the_chips_so_far() -> None:
    """RULES.md Leaving (issue 13, item 5): the one seat left wins even with fewer chips; no
    round is scored for it alone. Judgement call common/forfeit-ends-at-once."""
    state, _ = moves(heartbeat(), (0, choose("KS")), (1, choose("QD")), (2, choose("5D")))
    state, events = moves(state, (2, choose("6C")), (0, Leave()), (1, Leave()))
    assert events[-2:] == [
        PlayerLeft(seat=1),
        GameFinished(scores=(1, 1, 0), winners=(2,), seed=SEED.hex(), reason="forfeit"),
    ]


def test_a_seat_that_left_keeps_its_chips_but_never_wins() -> None:
    """Judgement call heartbeat/leaver-keeps-chips: seat 0 wins round 1 and leaves; it ties
    for the most chips at the end but only the seats still at the table win."""
    state, _ = moves(heartbeat(), (0, choose("KS")), (1, choose("7D")), (2, choose("8S")))
    state, _ = moves(state, (0, Leave()), (1, choose("QD")), (2, choose("5D")))
    state, events = moves(state, (1, choose("3H")), (2, choose("6C")))
    assert events[-1] == GameFinished(scores=(1, 1, 1), winners=(1, 2), seed=SEED.hex())
