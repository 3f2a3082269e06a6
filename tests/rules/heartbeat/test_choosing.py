"""Heartbeat (RULES.md §1): the secret simultaneous choice, and what it hides, as scenarios."""

from __future__ import annotations

import pytest

from domain.errors import Failure
from domain.events import Secret
from domain.perspective import FULL, Perspective, redact
from domain.turns import Play
from domain.variants.heartbeat.messages import CardChosen, ChoicesRevealed
from tests.rules.heartbeat.scenarios import (
    HANDS,
    act,
    choose,
    heartbeat,
    moves,
    refused,
    reveal,
    shown_json,
)


def test_a_choice_is_secret_until_everyone_has_chosen() -> None:
    state, events = act(heartbeat(), 0, choose("KS"))
    assert len(events) == 1
    chosen = events[0]
    assert isinstance(chosen, CardChosen)
    assert (chosen.seat, chosen.card.owner, chosen.card.value) == (0, 0, "KS")
    assert chosen.card.salt, "a secret card must be salted"
    for seat in (None, 1, 2):
        perspective = Perspective(seat=seat)
        assert redact(chosen, perspective).card == Secret(owner=0)
        table = state.rules.public_table(state.table, perspective)
        assert table.chosen == (True, False, False)
        assert table.choices == (None, None, None)
        assert b'"KS"' not in shown_json(state, seat, events)
    own = state.rules.public_table(state.table, Perspective(seat=0))
    assert own.choices == ("KS", None, None)
    assert state.rules.hand(state.table, 0) == ("BJ", "AS", "4C", "9H")
    assert state.rules.public_table(state.table, FULL).choices == ("KS", None, None)
    assert state.rules.to_act(state.table) == (1, 2)


def test_all_choices_are_revealed_in_one_event() -> None:
    state, _ = moves(heartbeat(), (0, choose("KS")), (1, choose("QD")))
    _, events = act(state, 2, choose("5D"))
    revealed = [e for e in events if isinstance(e, ChoicesRevealed)]
    assert revealed == [
        ChoicesRevealed(round=1, plays=(Play(0, "KS"), Play(1, "QD"), Play(2, "5D")))
    ]


def test_a_choice_is_final() -> None:
    state, _ = act(heartbeat(), 0, choose("KS"))
    assert refused(state, 0, choose("9H")).code == "already_chosen"
    assert state.rules.legal_commands(state.table, 0) == []


def test_every_awaited_seat_is_listed_and_may_act_in_any_order() -> None:
    state = heartbeat()
    assert state.rules.to_act(state.table) == (0, 1, 2)
    state, _ = act(state, 2, choose("JH"))
    assert state.rules.to_act(state.table) == (0, 1)
    state, _ = act(state, 0, choose("KS"))
    assert state.rules.to_act(state.table) == (1,)


@pytest.mark.parametrize(
    ("card", "code", "failure"),
    [
        ("QD", "card_not_in_hand", Failure.CONFLICT),  # in seat 1's hand: only "your hand"
        ("RJ", "card_not_in_hand", Failure.CONFLICT),
        ("ZZ", "unknown_card", Failure.INVALID),
        ("ks", "unknown_card", Failure.INVALID),
    ],
)
def test_bad_cards_are_refused_speaking_only_of_the_callers_hand(
    card: str, code: str, failure: Failure
) -> None:
    error = refused(heartbeat(), 0, choose(card))
    assert (error.code, error.failure) == (code, failure)
    assert "seat" not in error.message and "player" not in error.message


def test_the_same_refusal_whether_or_not_another_seat_chose_the_card() -> None:
    # Seat 1 asking for a card seat 0 holds: the same answer before and after seat 0 chose it.
    before = refused(heartbeat(), 1, choose("KS"))
    state, _ = act(heartbeat(), 0, choose("KS"))
    after = refused(state, 1, choose("KS"))
    assert (before.code, before.message) == (after.code, after.message)


def test_legal_commands_list_only_the_callers_cards() -> None:
    state = heartbeat()
    assert state.rules.legal_commands(state.table, 1) == [
        choose(card) for card in ("2C", "3H", "7D", "10C", "QD")
    ]


@pytest.mark.parametrize("observer", [None, 0, 2])
def test_another_players_unrevealed_choice_does_not_change_what_an_observer_is_served(
    observer: int | None,
) -> None:
    served = []
    for secret in ("QD", "3H"):
        state, events = moves(heartbeat(), (0, choose("9H")), (1, choose(secret)))
        served.append(shown_json(state, observer, events))
    assert served[0] == served[1]
    # ... while the chooser is served something different: the test can see a difference.
    chooser = []
    for secret in ("QD", "3H"):
        state, events = moves(heartbeat(), (0, choose("9H")), (1, choose(secret)))
        chooser.append(shown_json(state, 1, events))
    assert chooser[0] != chooser[1]


@pytest.mark.parametrize("observer", [None, 0, 2])
def test_a_rank_only_reveal_hides_the_suit_from_everyone_else(observer: int | None) -> None:
    hands = [HANDS[0], ("7D", "7C", "3H", "2C", "10C"), HANDS[2]]
    served = []
    for card in ("7D", "7C"):
        state = heartbeat(("reveal", "double", "double"), {"reveal_shows": "rank"}, hands=hands)
        state, events = act(state, 1, reveal(card))
        served.append(shown_json(state, observer, events))
    assert served[0] == served[1]
