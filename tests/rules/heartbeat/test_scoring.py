"""Heartbeat (RULES.md §1): card values, who wins a round, chips and the end of the game."""

from __future__ import annotations

import pytest

from domain.commands import Leave
from domain.events import GameFinished
from domain.perspective import PUBLIC
from domain.turns import Play
from domain.variants.heartbeat.messages import (
    CardChosen,
    ChoicesRevealed,
    RoundScored,
    TempoCardFlipped,
)
from domain.variants.heartbeat.table import card_value
from tests.rules.heartbeat.scenarios import choose, heartbeat, moves, scored
from tests.rules.scenario import SEED


@pytest.mark.parametrize(
    ("card", "value"),
    [
        ("AS", 1),
        ("2H", 2),
        ("7D", 7),
        ("10C", 10),
        ("JH", 10),
        ("QS", 10),
        ("KD", 10),
        ("BJ", 0),
        ("RJ", 0),
    ],
)
def test_card_values(card: str, value: int) -> None:
    assert card_value(card) == value


def test_highest_value_wins_a_round_without_tempo_card() -> None:
    state, events = moves(heartbeat(), (0, choose("9H")), (1, choose("7D")), (2, choose("8S")))
    assert [type(e) for e in events] == [CardChosen] * 3 + [ChoicesRevealed, RoundScored]
    assert events[3] == ChoicesRevealed(
        round=1, plays=(Play(0, "9H"), Play(1, "7D"), Play(2, "8S"))
    )
    assert events[4] == RoundScored(round=1, tempo=None, winners=(0,), chips=(1, 0, 0))
    assert state.table.chips == (1, 0, 0)
    assert state.rules.public_table(state.table, PUBLIC).round == 2


def test_every_player_tied_for_best_wins_suits_never_matter() -> None:
    # K, Q and J are all worth 10.
    _, events = moves(heartbeat(), (0, choose("KS")), (1, choose("QD")), (2, choose("JH")))
    assert scored(events).winners == (0, 1, 2)
    assert scored(events).chips == (1, 1, 1)


def test_reverse_lowest_wins_and_a_joker_beats_an_ace() -> None:
    state = heartbeat(("reverse", "double", "double"))
    assert state.rules.public_table(state.table, PUBLIC).tempo == "reverse"
    _, events = moves(state, (0, choose("BJ")), (1, choose("2C")), (2, choose("AH")))
    assert scored(events) == RoundScored(round=1, tempo="reverse", winners=(0,), chips=(1, 0, 0))
    _, events = moves(state, (0, choose("AS")), (1, choose("2C")), (2, choose("AH")))
    assert scored(events).winners == (0, 2)


def test_without_jokers_the_ace_is_the_lowest() -> None:
    hands = [("AS", "2S", "3S", "4S", "5S"), ("2H", "3H", "4H", "5H", "6H")]
    state = heartbeat(("reverse", "double", "double"), {"jokers": "removed"}, hands=hands)
    _, events = moves(state, (0, choose("AS")), (1, choose("2H")))
    assert scored(events).winners == (0,)


def test_double_gives_two_chips_to_each_winner_by_default() -> None:
    state = heartbeat(("double", "reverse", "reverse"))
    _, events = moves(state, (0, choose("KS")), (1, choose("10C")), (2, choose("8S")))
    assert scored(events) == RoundScored(round=1, tempo="double", winners=(0, 1), chips=(2, 2, 0))


def test_double_others_one_gives_every_non_winner_a_chip() -> None:
    state = heartbeat(("double", "reverse", "reverse"), {"double_rule": "others_one"})
    _, events = moves(state, (0, choose("KS")), (1, choose("7D")), (2, choose("8S")))
    assert scored(events).chips == (2, 1, 1)


def test_others_one_changes_nothing_outside_a_double_round() -> None:
    state = heartbeat(("reverse", "double", "double"), {"double_rule": "others_one"})
    _, events = moves(state, (0, choose("KS")), (1, choose("7D")), (2, choose("8S")))
    assert scored(events).chips == (0, 1, 0)


def test_three_rounds_finish_the_game_with_shared_wins() -> None:
    state = heartbeat(("double", "reverse", "pressure", "reveal"))
    state, _ = moves(state, (0, choose("KS")), (1, choose("10C")), (2, choose("8S")))  # 2, 2, 0
    assert state.rules.public_table(state.table, PUBLIC).tempo == "reverse"
    state, _ = moves(state, (0, choose("9H")), (1, choose("7D")), (2, choose("AH")))  # 0, 0, 1
    assert state.rules.public_table(state.table, PUBLIC).tempo == "pressure"
    state, events = moves(state, (0, choose("4C")), (1, choose("QD")), (2, choose("JH")))
    assert events[-1] == GameFinished(scores=(2, 3, 2), winners=(1,), seed=SEED.hex())
    assert state.status == "finished"
    assert not any(isinstance(e, TempoCardFlipped) for e in events)
    assert [(row.label, row.points) for row in state.rules.score_rows(state.table)] == [
        ("round 1", (2, 2, 0)),
        ("round 2", (0, 0, 1)),
        ("round 3", (0, 1, 1)),
    ]
    assert state.rules.to_act(state.table) == ()
    assert state.rules.deadline(state.table) is None
    assert state.rules.public_table(state.table, PUBLIC).phase == "over"


def test_equal_chips_share_the_win() -> None:
    state = heartbeat()
    state, _ = moves(state, (0, choose("KS")), (1, choose("7D")), (2, choose("8S")))
    state, _ = moves(state, (0, choose("4C")), (1, choose("QD")), (2, choose("6C")))
    state, events = moves(state, (0, choose("AS")), (1, choose("3H")), (2, choose("JH")))
    assert events[-1] == GameFinished(scores=(1, 1, 1), winners=(0, 1, 2), seed=SEED.hex())
    assert state.outcome is not None and state.outcome.winners == (0, 1, 2)


def test_the_double_consolation_goes_to_players_of_the_round_only() -> None:
    """Judgement call heartbeat/consolation-for-players-only."""
    state = heartbeat(("double", "reverse", "reverse"), {"double_rule": "others_one"})
    state, events = moves(state, (2, Leave()), (0, choose("KS")), (1, choose("7D")))
    assert scored(events).chips == (2, 1, 0)
