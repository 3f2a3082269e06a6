"""Cancellation Hearts (RULES.md §4): the pass before each hand, as scenarios."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from domain import game, game_state
from domain.cards import double_deck
from domain.commands import Command
from domain.errors import Failure
from domain.events import GameStarted, HandDealt
from domain.perspective import PUBLIC, Perspective, redact
from domain.variant import Turn
from domain.variants.cancellation_hearts.messages import CardsPassed, PassCards, PassesDelivered
from tests.rules.cancellation_hearts.scenarios import (
    RULES,
    SIX,
    VARIANT,
    of_type,
    passing,
    play,
    playing,
    to_act,
)
from tests.rules.scenario import NOW, created, given, play_out, refused


@pytest.mark.parametrize(("hand", "direction", "step"), [(1, "left", 1), (2, "right", -1)])
def test_every_seat_passes_three_and_all_are_delivered_at_once(
    hand: int, direction: str, step: int
) -> None:
    state = passing(SIX, hand=hand)
    assert to_act(state) == tuple(range(6))
    moves: list[tuple[int, Command]] = [(s, PassCards(cards=SIX[s])) for s in range(5)]
    state, events = play_out(state, moves)
    assert [type(e) for e in events] == [CardsPassed] * 5
    assert to_act(state) == (5,)
    state, events = play_out(state, [(5, PassCards(cards=SIX[5]))])
    passed, delivered = events
    assert isinstance(passed, CardsPassed) and isinstance(delivered, PassesDelivered)
    assert delivered.direction == direction
    for seat in range(6):
        sender = (seat - step) % 6
        assert delivered.senders[seat] == sender
        assert delivered.received[seat].owner == seat
        assert delivered.received[seat].unwrap() == SIX[sender]
        assert Counter(RULES.hand(state.table, seat)) == Counter(SIX[sender])
    assert RULES.public_table(state.table, Perspective(seat=2)).received == SIX[(2 - step) % 6]


def test_pass_directions_over_four_hands() -> None:
    """Four real hands (shuffled deals), each seat playing its first legal command."""
    state = given([*created(VARIANT, 7, {"target": 500}), GameStarted(seat_count=7)])
    turn = Turn(NOW, state.stream, 1)
    state = game_state.fold(state, RULES.start(state.table, turn))
    deliveries: list[PassesDelivered] = []
    passes: dict[tuple[int, int], tuple[str, ...]] = {}
    deals: list[HandDealt] = []
    version = 2
    while len(deliveries) < 4:
        seat = to_act(state)[0]
        command = RULES.legal_commands(state.table, seat)[0]
        events = game.act(
            state, player_id=f"player-{seat}", command=command, now=NOW, version=version
        )
        version += len(events)
        state = game_state.fold(state, events)
        for event in events:
            if isinstance(event, CardsPassed):
                passes[event.hand, event.seat] = event.cards.unwrap()
            deliveries += of_type([event], PassesDelivered)
            deals += of_type([event], HandDealt)
    assert [d.direction for d in deliveries] == ["left", "right", "left", "right"]
    for delivery in deliveries:
        step = 1 if delivery.direction == "left" else -1
        for seat in range(7):
            assert delivery.senders[seat] == (seat - step) % 7
            assert delivery.received[seat].unwrap() == passes[delivery.hand, (seat - step) % 7]
    # Each hand has its own shuffle and the dealer moves left.
    stream = state.stream
    assert stream is not None
    for deal in deals:
        assert deal.dealer == (deal.hand - 1) % 7
        assert deal.rest.unwrap() == stream.shuffle(f"deal/{deal.hand}", double_deck())[98:]


def test_a_pass_is_seen_only_by_its_passer_until_delivery() -> None:
    state = passing(SIX)
    state, (passed,) = play_out(state, [(0, PassCards(cards=("2S", "3S", "4S")))])
    for seat in range(1, 6):
        assert redact(passed, Perspective(seat=seat)).cards.redacted
        assert RULES.public_table(state.table, Perspective(seat=seat)).my_pass is None
        assert RULES.hand(state.table, seat) == SIX[seat]
    assert not redact(passed, Perspective(seat=0)).cards.redacted
    own = RULES.public_table(state.table, Perspective(seat=0))
    assert own.my_pass == ("2S", "3S", "4S")
    assert own.passed == (True, False, False, False, False, False)
    assert RULES.hand(state.table, 0) == ()
    public = msgspec.json.encode(RULES.public_table(state.table, PUBLIC))
    assert b'"2S"' not in public


@pytest.mark.parametrize(
    ("cards", "code", "failure"),
    [
        (("2S", "3S"), "wrong_pass_size", Failure.INVALID),
        (("2S", "3S", "4S", "5S"), "wrong_pass_size", Failure.INVALID),
        (("2S", "3S", "ZZ"), "unknown_card", Failure.INVALID),
        (("2S", "3S", "AH"), "card_not_in_hand", Failure.CONFLICT),
        (("2S", "2S", "3S"), "card_not_in_hand", Failure.CONFLICT),
    ],
)
def test_bad_passes_are_refused(cards: tuple[str, ...], code: str, failure: Failure) -> None:
    error = refused(passing(SIX), 0, PassCards(cards=cards))
    assert (error.code, error.failure) == (code, failure)


def test_a_card_held_twice_may_be_passed_twice() -> None:
    hands = [("2S", "2S", "3S", "4S"), *[(*h, "9C") for h in SIX[1:]]]
    state, (passed,) = play_out(passing(hands), [(0, PassCards(cards=("2S", "2S", "4S")))])
    assert passed.cards.unwrap() == ("2S", "2S", "4S")
    assert RULES.hand(state.table, 0) == ("3S",)


def test_a_pass_is_final_and_play_waits_for_every_pass() -> None:
    state, _ = play_out(passing(SIX), [(0, PassCards(cards=SIX[0]))])
    assert refused(state, 0, PassCards(cards=SIX[0])).code == "already_passed"
    assert refused(state, 1, play("2H")).code == "passing_not_done"
    assert RULES.legal_commands(state.table, 0) == []
    offered = RULES.legal_commands(state.table, 1)
    assert PassCards(cards=("2H", "3H", "4H")) in offered


def test_passing_is_only_before_the_first_trick() -> None:
    state = playing(SIX)
    assert refused(state, 1, PassCards(cards=SIX[1])).code == "not_passing"
