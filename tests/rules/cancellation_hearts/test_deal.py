"""Cancellation Hearts (RULES.md §4): the deal and the kitty, as scenarios."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from domain.cards import RANKS, double_deck
from domain.events import HandDealt, Secret
from domain.fairness import RandomStream
from domain.perspective import PUBLIC, Perspective, redact
from domain.variant import Turn
from domain.variants.cancellation_hearts.messages import PenaltiesScored, TrickResolved
from tests.rules.cancellation_hearts.scenarios import RULES, of_type, playing, plays
from tests.rules.scenario import GAME_ID, NOW, SEED

KITTY_SIZES = {6: 2, 7: 6, 8: 0, 9: 5, 10: 4, 11: 5}


@pytest.mark.parametrize("seats", sorted(KITTY_SIZES))
def test_the_deal_gives_floor_104_over_n_each_and_the_rest_to_the_kitty(seats: int) -> None:
    table = RULES.setup(msgspec.convert({}, RULES.options_type), seats)
    stream = RandomStream(SEED, GAME_ID, [""] * seats)
    (deal,) = RULES.start(table, Turn(NOW, stream, 1))
    assert isinstance(deal, HandDealt)
    assert (deal.hand, deal.dealer) == (1, 0)
    assert [len(h.unwrap()) for h in deal.hands] == [104 // seats] * seats
    assert [h.owner for h in deal.hands] == list(range(seats))
    assert len(deal.rest.unwrap()) == KITTY_SIZES[seats]
    assert deal.rest.owner is None
    everything = [card for h in deal.hands for card in h.unwrap()] + list(deal.rest.unwrap())
    assert Counter(everything) == Counter(double_deck())
    # The deal is the labelled shuffle of the double deck, cut in seat order.
    deck = stream.shuffle("deal/1", double_deck())
    assert Counter(deal.hands[0].unwrap()) == Counter(deck[: 104 // seats])
    assert deal.rest.unwrap() == deck[seats * (104 // seats) :]
    # Nobody may see the kitty; each seat sees only its own hand.
    for viewer in (PUBLIC, Perspective(seat=1)):
        seen = redact(deal, viewer)
        assert seen.rest.redacted
        assert [not h.redacted for h in seen.hands] == [s == viewer.seat for s in range(seats)]


@pytest.mark.parametrize("seats", sorted(KITTY_SIZES))
def test_the_kitty_goes_to_the_winner_of_the_first_trick(seats: int) -> None:
    # Seat s holds the clubs and diamonds of rank s: the highest seat wins both tricks.
    """Judgement call cancellation-hearts/kitty-points-at-scoring."""
    hands = [(RANKS[s] + "C", RANKS[s] + "D") for s in range(seats)]
    kitty = ("AH", "KH", "QH", "JH", "10H", "9H")[: KITTY_SIZES[seats]]
    state = playing(hands, kitty)
    order = [*range(1, seats), 0]  # the dealer is seat 0; seat 1 leads
    state, events = plays(state, *[(s, RANKS[s] + "C") for s in order])
    (first,) = of_type(events, TrickResolved)
    top = seats - 1
    assert first.winner == top
    if kitty:
        assert first.kitty == Secret(owner=top, value=kitty, salt=first.kitty.salt)
        assert redact(first, Perspective(seat=0)).kitty.redacted
        view = RULES.public_table(state.table, Perspective(seat=top))
        assert view.kitty == kitty
        assert RULES.public_table(state.table, Perspective(seat=0)).kitty is None
    else:
        assert first.kitty is None
    assert RULES.public_table(state.table, PUBLIC).kitty_size == 0
    # The kitty's hearts count for its taker when the hand is scored.
    state, events = plays(state, *[(s, RANKS[s] + "D") for s in [top, *range(top)]])
    (scored,) = of_type(events, PenaltiesScored)
    assert scored.taken == tuple(len(kitty) if s == top else 0 for s in range(seats))
