"""One Up One Down (RULES.md §5): the deal, the high-card draw, options, commands off the wire."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from domain.cards import standard_deck
from domain.commands import parse_command
from domain.errors import Failure, RuleViolation
from domain.fairness import RandomStream
from domain.variant import Turn
from domain.variants.one_up_one_down.messages import FirstPlayerDrawn, PlayDown, VoteEnd
from domain.variants.one_up_one_down.rules import OneUpOneDown
from tests.rules.one_up_one_down.scenarios import VARIANT, after_eight_up, down, table, up
from tests.rules.scenario import NOW, SEED, created, play_out, refused, refused_creation


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
