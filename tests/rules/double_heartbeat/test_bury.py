"""Double Heartbeat (RULES.md §2): the dealer's bury, as scenarios."""

from __future__ import annotations

from itertools import combinations

from domain.choices import Choice, commands_of
from domain.errors import Failure
from domain.perspective import PUBLIC, Perspective, redact
from domain.variants.double_heartbeat.messages import (
    BuryCards,
    CardsBuried,
    HandSettled,
    LeadInherited,
)
from tests.rules.double_heartbeat.scenarios import BURY_HANDS, PASS, RULES, deal, play, to_act, view
from tests.rules.scenario import play_out, refused


def test_the_dealer_buries_before_the_first_lead() -> None:
    """Judgement call double-heartbeat/bury-first."""
    state = deal(BURY_HANDS)
    assert to_act(state) == (0,)
    assert refused(state, 0, play("3S")).code == "bury_first"
    assert refused(state, 1, PASS).code == "not_your_turn"
    assert refused(state, 1, BuryCards(cards=[])).code == "not_dealer"
    error = refused(state, 0, BuryCards(cards=["3S", "4S", "5S"]))
    assert (error.code, error.failure) == ("too_many_buried", Failure.INVALID)
    assert refused(state, 0, BuryCards(cards=["AS"])).code == "card_not_in_hand"
    (bury,) = RULES.legal_moves(state.table, 0)
    assert isinstance(bury, Choice)
    assert commands_of(bury) == [
        BuryCards(cards=[]),
        *(BuryCards(cards=[card]) for card in ("3S", "4S", "5S", "6S", "KD")),
        *(BuryCards(cards=list(pair)) for pair in combinations(("3S", "4S", "5S", "6S", "KD"), 2)),
    ]
    state, events = play_out(state, [(0, BuryCards(cards=["KD", "6S"]))])
    (buried,) = events
    assert isinstance(buried, CardsBuried)
    assert (buried.seat, buried.count, buried.cards.owner) == (0, 2, 0)
    assert buried.cards.value == ("KD", "6S")
    assert redact(buried, Perspective(seat=1)).cards.value is None
    assert redact(buried, PUBLIC).cards.value is None
    assert (view(state).buried, view(state).buried_count) == (None, 2)
    assert view(state, Perspective(seat=1)).buried is None
    assert view(state, Perspective(seat=0)).buried == ("KD", "6S")
    assert RULES.hand(state.table, 0) == ("3S", "4S", "5S")
    assert refused(state, 0, BuryCards(cards=[])).code == "not_bury_phase"


def test_buried_cards_become_public_when_the_hand_ends() -> None:
    moves = [(0, BuryCards(cards=["KD", "6S"])), (0, play("3S")), (1, play("7S"))]
    moves += [(2, play("9S")), (0, PASS), (1, PASS), (2, play("10S")), (0, PASS), (1, PASS)]
    state, events = play_out(deal(BURY_HANDS), moves)
    assert events[-1] == LeadInherited(seat=0, from_seat=2)
    state, events = play_out(state, [(0, play("4S")), (1, play("8S"))])
    assert events[-2] == HandSettled(
        hand=1, order=(2, 1), last=0, buried=("KD", "6S"), points=(-5, 5, 10)
    )
    assert view(state).results[0].buried == ("KD", "6S")


def test_no_bury_with_dealer_exchange_none_or_four_players() -> None:
    state = deal(BURY_HANDS, options={"dealer_exchange": "none"})
    assert refused(state, 0, BuryCards(cards=[])).code == "not_bury_phase"
    assert not any(isinstance(c, BuryCards) for c in RULES.legal_commands(state.table, 0))
    state = deal(["3S", "4S", "5S", "6S"])
    assert view(state).phase == "play"
    play_out(state, [(0, play("3S"))])
