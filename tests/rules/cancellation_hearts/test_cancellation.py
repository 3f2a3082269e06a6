"""Cancellation Hearts (RULES.md §4): identical cards cancel; a trick nobody wins is carried."""

from __future__ import annotations

from domain.events import HandDealt
from domain.perspective import PUBLIC
from domain.variants.cancellation_hearts.messages import PenaltiesScored, TrickResolved
from tests.rules.cancellation_hearts.scenarios import RULES, of_type, playing, plays, to_act


def test_a_cancelled_pair_lets_a_lower_card_win() -> None:
    hands = [("4S", "2D"), ("AS", "3D"), ("AS", "4D"), ("5S", "5D"), ("3S", "6D"), ("9D", "7D")]
    state = playing(hands, ("2H", "3H"))
    state, events = plays(state, (1, "AS"), (2, "AS"), (3, "5S"), (4, "3S"), (5, "9D"), (0, "4S"))
    (resolved,) = of_type(events, TrickResolved)
    assert resolved.cancelled == ("AS",)
    assert resolved.winner == 3
    assert resolved.cards == ("AS", "AS", "5S", "3S", "9D", "4S")
    assert resolved.collected == resolved.cards
    assert resolved.kitty is not None and resolved.kitty.owner == 3
    assert (resolved.carried, resolved.discarded, resolved.last) == ((), (), False)
    assert to_act(state) == (3,)


def test_identical_cards_off_the_led_suit_cancel_but_never_win_anyway() -> None:
    hands = [("9H", "2D"), ("2S", "3D"), ("9H", "4D"), ("3S", "5D"), ("4S", "6D"), ("JS", "7D")]
    _state, events = plays(
        playing(hands), (1, "2S"), (2, "9H"), (3, "3S"), (4, "4S"), (5, "JS"), (0, "9H")
    )
    (resolved,) = of_type(events, TrickResolved)
    assert (resolved.cancelled, resolved.winner, resolved.points) == (("9H",), 5, 2)


# The rules text's example: 10♠, 9♥, 9♥, 10♠ — both pairs cancel and nobody wins.
CARRY_HANDS = [
    ("3C", "2D", "AH"),
    ("10S", "4C", "3D"),
    ("9H", "5C", "4D"),
    ("9H", "6C", "5D"),
    ("10S", "AC", "6D"),
    ("2C", "7C", "7D"),
]


def test_a_fully_cancelled_trick_is_carried_to_the_next_winner_with_the_kitty() -> None:
    kitty = ("QS", "KH")
    state = playing(CARRY_HANDS, kitty)
    first = [(1, "10S"), (2, "9H"), (3, "9H"), (4, "10S"), (5, "2C"), (0, "3C")]
    state, events = plays(state, *first)
    (resolved,) = of_type(events, TrickResolved)
    trick_one = ("10S", "9H", "9H", "10S", "2C", "3C")
    assert resolved == TrickResolved(
        hand=1,
        trick=1,
        leader=1,
        cards=trick_one,
        cancelled=("10S", "9H"),
        winner=None,
        carried=trick_one,
    )
    view = RULES.public_table(state.table, PUBLIC)
    assert view.carry == trick_one
    assert view.kitty_size == 2
    assert to_act(state) == (1,)  # the same leader leads again
    state, events = plays(state, (1, "4C"), (2, "5C"), (3, "6C"), (4, "AC"), (5, "7C"), (0, "2D"))
    (won,) = of_type(events, TrickResolved)
    assert won.winner == 4
    assert won.collected == (*trick_one, "4C", "5C", "6C", "AC", "7C", "2D")
    assert won.points == 2
    assert won.kitty is not None and won.kitty.unwrap() == kitty and won.kitty.owner == 4
    assert RULES.public_table(state.table, PUBLIC).carry == ()
    assert RULES.public_table(state.table, PUBLIC).trick_points == (0, 0, 0, 0, 2, 0)
    state, events = plays(state, (4, "6D"), (5, "7D"), (0, "AH"), (1, "3D"), (2, "4D"), (3, "5D"))
    (scored,) = of_type(events, PenaltiesScored)
    assert scored.taken == (0, 0, 0, 0, 2 + 13 + 1, 1)  # seat 5's 7D took the AH


def test_a_fully_cancelled_last_trick_is_collected_by_nobody() -> None:
    hands = [
        ("2C", "8D", "KD"),
        ("3C", "QS", "9S"),
        ("4C", "9D", "3D"),
        ("5C", "AH", "10D"),
        ("AC", "QS", "AH"),
        ("6C", "JD", "4D"),
    ]
    state = playing(hands, ("2D", "3D"))
    state, events = plays(state, (1, "3C"), (2, "4C"), (3, "5C"), (4, "AC"), (5, "6C"), (0, "2C"))
    assert of_type(events, TrickResolved)[0].winner == 4
    # Trick 2: the two queens of spades cancel and nobody else has a spade: carried.
    state, events = plays(state, (4, "QS"), (5, "JD"), (0, "8D"), (1, "QS"), (2, "9D"))
    assert not of_type(events, TrickResolved)
    state, events = plays(state, (3, "10D"))
    (carried,) = of_type(events, TrickResolved)
    assert (carried.winner, carried.cancelled, carried.last) == (None, ("QS",), False)
    assert carried.carried == ("QS", "JD", "8D", "QS", "9D", "10D")
    assert to_act(state) == (4,)
    # Trick 3, the last: the aces of hearts cancel, nobody wins, nobody collects anything.
    state, events = plays(state, (4, "AH"), (5, "4D"), (0, "KD"), (1, "9S"), (2, "3D"))
    state, events = plays(state, (3, "AH"))
    last, scored, next_deal = events[1:]
    assert isinstance(last, TrickResolved)
    assert (last.winner, last.last, last.cancelled) == (None, True, ("AH",))
    assert (last.collected, last.carried, last.kitty) == ((), (), None)
    assert last.discarded == (
        *("QS", "JD", "8D", "QS", "9D", "10D"),
        *("AH", "4D", "KD", "9S", "3D", "AH"),
    )
    assert isinstance(scored, PenaltiesScored)
    assert scored.taken == (0, 0, 0, 0, 0, 0)
    assert scored.moon is None
    assert isinstance(next_deal, HandDealt)
