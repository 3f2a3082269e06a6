"""Cancellation Hearts (RULES.md §4): options checked at creation, commands off the wire."""

from __future__ import annotations

from typing import Any

import pytest

from domain.commands import parse_command
from domain.errors import Failure, RuleViolation
from domain.variants.cancellation_hearts.messages import ChooseMoon, PassCards
from tests.rules.cancellation_hearts.scenarios import RULES, VARIANT
from tests.rules.scenario import created, refused_creation


@pytest.mark.parametrize(
    ("seats", "options", "code"),
    [
        (5, None, "invalid_seat_count"),
        (12, None, "invalid_seat_count"),
        (6, {"target": 49}, "invalid_option"),
        (6, {"target": 501}, "invalid_option"),
        (6, {"moon": "double"}, "invalid_option"),
        (6, {"moon_points": 0}, "invalid_option"),
        (6, {"jokers": "zero"}, "unknown_option"),
    ],
)
def test_creation_is_validated(seats: int, options: dict[str, Any] | None, code: str) -> None:
    refused = refused_creation(VARIANT, seats, options)
    assert (refused.code, refused.failure) == (code, Failure.INVALID)


def test_defaults_are_stored_in_the_creation_event() -> None:
    creation = created(VARIANT, 6)[0]
    assert creation.options == {"moon": "choose", "moon_points": 26, "target": 150}
    assert RULES.lower_score_wins


def test_the_pass_command_is_parsed_from_the_wire() -> None:
    command = parse_command(RULES.commands, {"type": "pass_cards", "cards": ["QS", "AH", "2C"]})
    assert command == PassCards(cards=("QS", "AH", "2C"))
    with pytest.raises(RuleViolation) as error:
        parse_command(RULES.commands, {"type": "pass_cards", "cards": ["QS"]})
    assert error.value.code == "invalid_command"
    moon = parse_command(RULES.commands, {"type": "moon", "choice": "add"})
    assert moon == ChooseMoon(choice="add")
