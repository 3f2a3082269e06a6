"""Cancellation Hearts (RULES.md §4): leading, following and breaking hearts, as scenarios."""

from __future__ import annotations

import pytest

from domain.commands import PlayCard
from domain.errors import Failure
from domain.game_state import GameState
from domain.perspective import PUBLIC
from domain.variants.cancellation_hearts.messages import TrickResolved
from tests.rules.cancellation_hearts.scenarios import RULES, of_type, play, playing, plays, to_act
from tests.rules.scenario import refused


def legal_cards(state: GameState, seat: int) -> list[str]:
    return [c.card for c in RULES.legal_commands(state.table, seat) if isinstance(c, PlayCard)]


def test_the_player_left_of_the_dealer_leads_and_not_a_heart_or_the_queen() -> None:
    hands = [("5C",), ("AH", "QS", "2C"), ("3C",), ("4C",), ("6C",), ("7C",)]
    state = playing(hands)
    assert to_act(state) == (1,)
    assert legal_cards(state, 1) == ["2C"]
    for card in ("AH", "QS"):
        error = refused(state, 1, play(card))
        assert (error.code, error.failure) == ("first_lead_restricted", Failure.CONFLICT)
    assert refused(state, 2, play("3C")).code == "not_your_turn"
    _state, events = plays(state, (1, "2C"))
    assert events[0].card == "2C"


def test_a_first_leader_holding_only_hearts_and_queens_leads_anything() -> None:
    hands = [("5C",), ("AH", "QS"), ("3C",), ("4C",), ("6C",), ("7C",)]
    state = playing(hands)
    assert legal_cards(state, 1) == ["AH", "QS"]
    _state, events = plays(state, (1, "QS"))
    assert events[0].card == "QS"


def test_later_dealers_move_the_first_lead_left() -> None:
    """Judgement call cancellation-hearts/dealer-rotates-by-hand."""
    hands = [("5C",), ("3C",), ("4C",), ("6C",), ("7C",), ("8C",)]
    assert to_act(playing(hands, hand=3)) == (3,)  # dealer 2


def test_players_must_follow_suit_when_able() -> None:
    hands = [("5C", "AH"), ("2C", "9D"), ("3C", "KH"), ("4C", "8D"), ("9S", "6D"), ("7C", "5D")]
    state, _ = plays(playing(hands), (1, "2C"))
    error = refused(state, 2, play("KH"))
    assert (error.code, error.failure) == ("must_follow_suit", Failure.CONFLICT)
    assert "KH" not in error.message and "♣" in error.message
    assert legal_cards(state, 2) == ["3C"]
    state, _ = plays(state, (2, "3C"), (3, "4C"))
    assert legal_cards(state, 4) == ["9S", "6D"]  # void in clubs: anything


def test_cards_not_held_are_refused() -> None:
    state = playing([("5C",), ("2C",), ("3C",), ("4C",), ("6C",), ("7C",)])
    assert refused(state, 1, play("AS")).code == "card_not_in_hand"
    assert refused(state, 1, play("1X")).code == "unknown_card"


# Seat 1 leads 2C, seat 2 (void in clubs) discards X, seat 4 wins with AC and leads next.
def breaking_hands(discard: str, fourth: tuple[str, str]) -> list[tuple[str, ...]]:
    return [
        ("5C", "7D", "10D"),
        ("2C", "8D", "9D"),
        (discard, "8S", "9S"),
        ("3C", "2D", "3D"),
        ("AC", *fourth),
        ("4C", "5D", "6D"),
    ]


def after_first_trick(discard: str, fourth: tuple[str, str]) -> GameState:
    state = playing(breaking_hands(discard, fourth))
    state, events = plays(state, (1, "2C"), (2, discard), (3, "3C"), (4, "AC"), (5, "4C"))
    state, events = plays(state, (0, "5C"))
    assert of_type(events, TrickResolved)[0].winner == 4
    return state


def test_hearts_may_not_be_led_before_they_are_broken() -> None:
    state = after_first_trick("6D", ("7H", "4D"))
    assert not RULES.public_table(state.table, PUBLIC).hearts_broken
    error = refused(state, 4, play("7H"))
    assert (error.code, error.failure) == ("hearts_not_broken", Failure.CONFLICT)
    assert legal_cards(state, 4) == ["4D"]


@pytest.mark.parametrize("discard", ["5H", "QS"])
def test_a_heart_or_a_queen_of_spades_played_breaks_hearts(discard: str) -> None:
    state = after_first_trick(discard, ("7H", "4D"))
    assert RULES.public_table(state.table, PUBLIC).hearts_broken
    assert legal_cards(state, 4) == ["7H", "4D"]
    _state, events = plays(state, (4, "7H"))
    assert events[0].card == "7H"


def test_the_queen_of_spades_may_be_led_after_the_first_trick_and_breaks_hearts() -> None:
    state = after_first_trick("6D", ("QS", "7H"))
    assert legal_cards(state, 4) == ["QS"]
    state, events = plays(state, (4, "QS"), (5, "5D"), (0, "7D"), (1, "8D"), (2, "8S"))
    state, events = plays(state, (3, "2D"))
    assert of_type(events, TrickResolved)[0].winner == 4
    _state, events = plays(state, (4, "7H"))
    assert events[0].card == "7H"


def test_a_leader_holding_only_hearts_may_lead_one_before_they_are_broken() -> None:
    state = after_first_trick("6D", ("7H", "8H"))
    assert legal_cards(state, 4) == ["7H", "8H"]
    state, _ = plays(state, (4, "8H"))
    assert RULES.public_table(state.table, PUBLIC).hearts_broken
