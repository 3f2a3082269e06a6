"""One Up One Down (RULES.md §5): cards played face up, as scenarios."""

from __future__ import annotations

from domain.events import CardPlayed
from domain.perspective import PUBLIC, Perspective, redact
from domain.variants.one_up_one_down.messages import CardDrawn, Decline
from tests.rules.one_up_one_down.scenarios import (
    HANDS3,
    STOCK,
    after_eight_up,
    down,
    table,
    to_act,
    up,
)
from tests.rules.scenario import play_out, refused


def test_the_first_card_is_face_up_and_sets_the_target() -> None:
    state = table(HANDS3, STOCK)
    assert to_act(state) == (0,)
    assert refused(state, 0, down("8H", "8")).code == "must_play_face_up"
    state, events = play_out(state, [(0, up("8H"))])
    assert events == [CardPlayed(seat=0, card="8H")]
    shown = state.rules.public_table(state.table, PUBLIC)
    assert (shown.target, shown.facing, shown.to_play) == ("8", "down", 1)
    assert refused(state, 1, up("10C")).code == "must_play_face_down"
    assert refused(state, 2, down("5S")).code == "not_your_turn"


def test_face_up_below_the_target_stands_but_draws_the_top_of_the_stock() -> None:
    state, _ = play_out(after_eight_up(), [(1, down("10C", "10")), (2, Decline()), (0, Decline())])
    state, events = play_out(state, [(2, up("5S"))])
    assert events[0] == CardPlayed(seat=2, card="5S")
    drawn = events[1]
    assert isinstance(drawn, CardDrawn)
    assert (drawn.seat, drawn.card.owner, drawn.card.value) == (2, 2, "3C")
    assert redact(drawn, Perspective(seat=0)).card.value is None
    assert "3C" in state.table.hands[2]
    assert len(state.table.stock) == 2
    # The card still stands: its true rank is the new target, and the next card goes face down.
    shown = state.rules.public_table(state.table, PUBLIC)
    assert (shown.target, shown.facing, shown.to_play) == ("5", "down", 0)


def test_face_up_below_the_target_with_an_empty_stock_draws_nothing() -> None:
    state, _ = play_out(table(HANDS3), [(0, up("8H")), (1, down("10C", "10"))])
    state, _ = play_out(state, [(2, Decline()), (0, Decline())])
    state, events = play_out(state, [(2, up("5S"))])
    assert events == [CardPlayed(seat=2, card="5S")]
    assert len(state.table.hands[2]) == 3


def test_face_up_equal_or_higher_draws_nothing() -> None:
    state, _ = play_out(table(HANDS3, STOCK), [(0, up("8H")), (1, down("KS", "8"))])
    state, _ = play_out(state, [(2, Decline()), (0, Decline())])
    state, events = play_out(state, [(2, up("2C"))])  # 2 is the highest rank
    assert events == [CardPlayed(seat=2, card="2C")]
