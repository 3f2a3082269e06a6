"""Double Heartbeat (RULES.md §2): commands refused, legal commands and views, as scenarios."""

from __future__ import annotations

import msgspec
import pytest

from domain.commands import Command, parse_command
from domain.errors import Failure, RuleViolation
from domain.perspective import Perspective
from domain.variants.double_heartbeat.messages import BuryCards, PlayCombination
from tests.rules.double_heartbeat.scenarios import LEAVE_HANDS, PASS, RULES, deal, play, view
from tests.rules.scenario import play_out, refused


@pytest.mark.parametrize(
    ("command", "code", "failure"),
    [
        (play("ZZ"), "unknown_card", Failure.INVALID),
        (play("BJ"), "card_not_in_hand", Failure.CONFLICT),
        (play(""), "empty_play", Failure.INVALID),
        (play("3S 3S"), "card_not_in_hand", Failure.CONFLICT),
        (play("3S 5S"), "not_a_combination", Failure.INVALID),
        (play("3S", "pair"), "combination_mismatch", Failure.INVALID),
        (BuryCards(cards=[]), "not_bury_phase", Failure.CONFLICT),
    ],
)
def test_bad_plays_are_refused(command: Command, code: str, failure: Failure) -> None:
    error = refused(deal(LEAVE_HANDS), 0, command)
    assert (error.code, error.failure) == (code, failure)


def test_a_command_body_must_name_a_known_combination() -> None:
    with pytest.raises(RuleViolation) as error:
        parse_command(RULES.commands, {"type": "play", "cards": ["3S"], "combination": "rocket"})
    assert error.value.code == "invalid_command"


def test_legal_commands_list_one_representative_per_combination() -> None:
    state = deal(["3S 3H 4S", "5S 5H 3D", "6S", "7S"])
    assert RULES.legal_commands(state.table, 0) == [
        PlayCombination(cards=["3S"], combination="single"),
        PlayCombination(cards=["4S"], combination="single"),
        PlayCombination(cards=["3S", "3H"], combination="pair"),
    ]
    assert RULES.legal_commands(state.table, 1) == []
    state, _ = play_out(state, [(0, play("3S 3H"))])
    assert RULES.legal_commands(state.table, 1) == [
        PASS,
        PlayCombination(cards=["5S", "5H"], combination="pair"),
    ]


def test_views_hide_other_hands_and_sort_the_own_hand() -> None:
    state = deal(["4S 3H 2S", "5S", "6S", "7S"])
    assert RULES.hand(state.table, 0) == ("3H", "4S", "2S")
    assert RULES.hand_sizes(state.table) == (3, 1, 1, 1)
    shown = msgspec.json.encode(view(state, Perspective(seat=1)))
    assert b"4S" not in shown
    assert b"3H" not in shown
