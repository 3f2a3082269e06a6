"""Double Heartbeat (RULES.md §2): a full hand, its score and the next deal, as scenarios."""

from __future__ import annotations

from domain.cards import double_deck
from domain.choices import Choice
from domain.events import GameFinished, HandDealt, TrickWon
from domain.fairness import RandomStream
from domain.variant import ScoreRow
from domain.variants.double_heartbeat.messages import (
    AllianceFormed,
    BuryCards,
    HandSettled,
    PlayerWentOut,
)
from tests.rules.double_heartbeat.scenarios import PASS, RULES, deal, play, to_act, view
from tests.rules.scenario import GAME_ID, SEED, play_out, refused

FULL_HAND = ["3S 8S 8H", "8D 8C 9D", "4S 4H 4D 4C 6S 7S"]
FULL_MOVES = [
    (0, play("3S")),
    (1, PASS),
    (2, PASS),  # seat 0 wins the opening trick
    (0, play("8S 8H")),  # a fresh lead, and seat 0 goes out first
    (1, play("8D 8C")),  # the copy: seat 1 becomes seat 0's ally
    (2, play("4S 4H 4D 4C")),  # a 4-bomb: +2 at once
    (1, PASS),  # seat 0 is out, so the trick ends
    (2, play("6S")),
    (1, play("9D")),  # seat 1 goes out second: only seat 2 holds cards
]


def test_scoring_of_a_full_hand() -> None:
    state, events = play_out(deal(FULL_HAND, options={"dealer_exchange": "none"}), FULL_MOVES)
    assert AllianceFormed(leader=0, copier=1) in events
    assert (
        TrickWon(trick=2, seat=2, cards=("8S", "8H", "8D", "8C", "4S", "4H", "4D", "4C"), points=0)
        in events
    )
    assert events[-3:] == [
        PlayerWentOut(seat=1, place=2),
        HandSettled(hand=1, order=(0, 1), last=2, buried=(), points=(20, 15, -5)),
        GameFinished(scores=(20, 15, -3), winners=(0,), seed=SEED.hex()),
    ]
    assert state.status == "finished"
    assert RULES.score_rows(state.table) == [ScoreRow(label="hand 1", points=(20, 15, -3))]


def test_no_allied_bonus_when_first_and_second_are_not_allies() -> None:
    moves = [(0, play("3S")), (1, PASS), (2, PASS), (0, play("8S 8H")), (1, PASS)]
    moves += [(2, play("4S 4H 4D 4C")), (1, PASS), (2, play("6S")), (1, PASS)]
    state, _ = play_out(deal(FULL_HAND, options={"dealer_exchange": "none"}), moves)
    assert refused(state, 2, play("8D")).code == "card_not_in_hand"
    state, events = play_out(state, [(2, play("7S"))])
    assert events[-3:] == [
        PlayerWentOut(seat=2, place=2),
        HandSettled(hand=1, order=(0, 2), last=1, buried=(), points=(10, -5, 5)),
        GameFinished(scores=(10, -5, 7), winners=(0,), seed=SEED.hex()),
    ]


def test_the_next_hand_is_dealt_by_the_seat_to_the_left_with_its_own_shuffle() -> None:
    state = deal(FULL_HAND, options={"dealer_exchange": "none", "hands": 2})
    state, events = play_out(state, FULL_MOVES)
    assert isinstance(events[-2], HandSettled)
    dealt = events[-1]
    assert isinstance(dealt, HandDealt)
    assert (dealt.hand, dealt.dealer) == (2, 1)
    deck = RandomStream(SEED, GAME_ID, ["", "", ""]).shuffle("deal/2", double_deck())
    assert [secret.value for secret in dealt.hands] == [deck[:34], deck[34:70], deck[70:]]
    assert state.status == "active"
    assert RULES.hand_sizes(state.table) == (34, 36, 34)
    assert to_act(state) == (1,)  # with "none" the new dealer leads at once
    assert RULES.scores(state.table) == (20, 15, -3)


def test_the_next_hand_starts_with_the_dealers_bury() -> None:
    state = deal(FULL_HAND, options={"hands": 2})
    state, _ = play_out(state, [(0, BuryCards(cards=[])), *FULL_MOVES])
    assert to_act(state) == (1,)
    assert view(state).phase == "bury"
    (bury,) = RULES.legal_moves(state.table, 1)  # bury 0, 1 or 2 of the new dealer's cards
    assert isinstance(bury, Choice) and (bury.min, bury.max) == (0, 2)
