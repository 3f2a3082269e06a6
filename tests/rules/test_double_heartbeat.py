"""Double Heartbeat (RULES.md §2) as scenarios: given events → when a command → then events."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

import msgspec
import pytest

from domain import game
from domain.cards import double_deck
from domain.choices import Choice, commands_of
from domain.commands import Command, Leave, parse_command
from domain.errors import Failure, RuleViolation
from domain.events import (
    GameFinished,
    GameStarted,
    HandDealt,
    PlayerLeft,
    Secret,
    TrickWon,
)
from domain.fairness import RandomStream
from domain.game_state import GameState
from domain.perspective import FULL, PUBLIC, Perspective, redact
from domain.variant import ScoreRow, Turn
from domain.variants.double_heartbeat import DoubleHeartbeat
from domain.variants.double_heartbeat.messages import (
    AllianceBroken,
    AllianceFormed,
    BuryCards,
    CardsBuried,
    CombinationPlayed,
    FirstDealerDrawn,
    HandSettled,
    LeadInherited,
    PassTurn,
    PlayCombination,
    PlayerWentOut,
    TurnPassed,
)
from tests.rules.scenario import (
    GAME_ID,
    NOW,
    SEED,
    created,
    given,
    play_out,
    refused,
    refused_creation,
)

V = "double-heartbeat"
PASS = PassTurn()
RULES = DoubleHeartbeat()


def deal(hands: list[str], *, dealer: int = 0, options: dict[str, Any] | None = None) -> GameState:
    """A game whose first hand is dealt as given (one hand per match unless said otherwise)."""
    dealt = HandDealt(
        hand=1,
        dealer=dealer,
        hands=tuple(Secret(owner=s, value=tuple(h.split())) for s, h in enumerate(hands)),
        rest=Secret(owner=None, value=()),
    )
    setup = created(V, len(hands), {"hands": 1, **(options or {})})
    return given([*setup, GameStarted(seat_count=len(hands)), dealt])


def play(cards: str, combination: str | None = None) -> PlayCombination:
    return PlayCombination(cards=cards.split(), combination=combination)  # type: ignore[arg-type]


def view(state: GameState, perspective: Perspective = PUBLIC) -> Any:
    return RULES.public_table(state.table, perspective)


def to_act(state: GameState) -> tuple[int, ...]:
    return RULES.to_act(state.table)


# --- alliances: four players (no dealer surplus, so no bury phase) ----------------------------

ALLIANCE_HANDS = [
    "3S 4S 7D 9S 9H 9D 9C 10S 10H QS QH",
    "3H 10D 10C 5S 6S",
    "7S 7H 10S 10C JS JH",
    "5H 6H 8H KD",
]
WON_FIRST_TRICK = [(0, play("3S")), (1, PASS), (2, PASS), (3, PASS)]
ALLIED = [*WON_FIRST_TRICK, (0, play("10S 10H")), (1, play("10D 10C"))]


def test_the_copy_of_a_trick_winners_new_lead_forms_an_alliance() -> None:
    state, events = play_out(deal(ALLIANCE_HANDS), WON_FIRST_TRICK)
    assert events[-1] == TrickWon(trick=1, seat=0, cards=("3S",), points=0)
    assert to_act(state) == (0,)
    state, _ = play_out(state, [(0, play("10S 10H"))])
    assert view(state).alliance_open
    assert PlayCombination(cards=["10D", "10C"], combination="pair") in RULES.legal_commands(
        state.table, 1
    )
    state, events = play_out(state, [(1, play("10D 10C"))])
    assert events == [
        CombinationPlayed(
            seat=1, cards=("10D", "10C"), combination="pair", top=7, rank="10", bonus=0
        ),
        AllianceFormed(leader=0, copier=1),
    ]
    for perspective in (PUBLIC, Perspective(seat=0), Perspective(seat=2), FULL):
        shown = view(state, perspective)
        assert shown.alliances == ((0, 1),)
        assert shown.allies == (1, 0, None, None)
        assert shown.top.seat == 1  # the copy is the new top play
    assert not view(state).alliance_open


def test_at_most_one_alliance_per_lead() -> None:
    state, _ = play_out(deal(ALLIANCE_HANDS), ALLIED)
    assert refused(state, 2, play("10S 10C")).code == "combination_too_low"


def test_copying_the_opening_lead_forms_no_alliance() -> None:
    state, _ = play_out(deal(ALLIANCE_HANDS), [(0, play("3S"))])
    assert not view(state).alliance_open
    error = refused(state, 1, play("3H"))
    assert (error.code, error.failure) == ("no_alliance_on_this_lead", Failure.CONFLICT)
    assert RULES.legal_commands(state.table, 1)[0] == PASS
    assert play("3H") not in RULES.legal_commands(state.table, 1)


def test_no_alliance_when_the_leader_is_already_allied() -> None:
    moves = [*ALLIED, (2, PASS), (3, PASS), (0, PASS)]
    state, events = play_out(deal(ALLIANCE_HANDS), moves)
    assert events[-1] == TrickWon(trick=2, seat=1, cards=("10S", "10H", "10D", "10C"), points=0)
    state, _ = play_out(state, [(1, play("5S")), (2, PASS)])
    assert refused(state, 3, play("5H")).code == "already_allied"


def test_no_alliance_when_the_copier_is_already_allied() -> None:
    moves = [*ALLIED, (2, PASS), (3, PASS), (0, PASS), (1, play("5S")), (2, play("7S"))]
    moves += [(3, PASS), (0, PASS), (1, PASS), (2, play("7H")), (3, PASS)]
    state, _ = play_out(deal(ALLIANCE_HANDS), moves)
    assert view(state).alliance_open  # seat 2 won and leads, unallied
    assert refused(state, 0, play("7D")).code == "already_allied"


def test_allies_cannot_beat_each_other_with_a_non_bomb() -> None:
    state, _ = play_out(deal(ALLIANCE_HANDS), [*ALLIED, (2, PASS), (3, PASS)])
    error = refused(state, 0, play("QS QH"))
    assert (error.code, error.failure) == ("ally_cannot_beat_ally", Failure.CONFLICT)
    legal = RULES.legal_commands(state.table, 0)
    assert legal == [PASS, PlayCombination(cards=["9S", "9H", "9D", "9C"], combination="bomb")]


def test_betrayal_allowed_a_bomb_over_an_ally_ends_the_alliance() -> None:
    """Judgement call double-heartbeat/betrayal-ends-alliance-first."""
    state, _ = play_out(deal(ALLIANCE_HANDS), [*ALLIED, (2, PASS), (3, PASS)])
    state, events = play_out(state, [(0, play("9S 9H 9D 9C"))])
    assert events == [
        AllianceBroken(by=0, ally=1),
        CombinationPlayed(
            seat=0, cards=("9S", "9H", "9D", "9C"), combination="bomb", top=6, rank="9", bonus=2
        ),
    ]
    assert view(state).alliances == ()
    assert RULES.scores(state.table) == (2, 0, 0, 0)
    assert RULES.score_rows(state.table) == [
        ScoreRow(label="hand 1 (in play)", points=(2, 0, 0, 0))
    ]


def test_betrayal_forbidden_an_ally_must_pass() -> None:
    state = deal(ALLIANCE_HANDS, options={"betrayal": "forbidden"})
    state, _ = play_out(state, [*ALLIED, (2, PASS), (3, PASS)])
    assert refused(state, 0, play("9S 9H 9D 9C")).code == "betrayal_forbidden"
    assert refused(state, 0, play("QS QH")).code == "ally_cannot_beat_ally"
    assert RULES.legal_commands(state.table, 0) == [PASS]


# --- turn flow ---------------------------------------------------------------------------------


def test_a_pass_does_not_lock_a_player_out_and_the_leader_cannot_pass() -> None:
    state = deal(["3S 6S 9S", "7S 8S", "5H 10H", "4D JD"])
    assert refused(state, 0, PASS).code == "leader_cannot_pass"
    assert refused(state, 1, play("7S")).code == "not_your_turn"
    state, _ = play_out(state, [(0, play("3S")), (1, PASS), (2, play("5H")), (3, PASS)])
    state, events = play_out(state, [(0, play("6S")), (1, play("7S"))])  # seat 1 passed before
    assert events[-1].seat == 1
    state, events = play_out(state, [(2, PASS), (3, PASS), (0, PASS)])
    assert events[-1] == TrickWon(trick=1, seat=1, cards=("3S", "5H", "6S", "7S"), points=0)
    assert to_act(state) == (1,)


def test_wrong_type_and_too_low_are_refused() -> None:
    state, _ = play_out(deal(["5S 5H 9S", "6S 4S 4H 6H", "7S 8S", "7H 8H"]), [(0, play("5S 5H"))])
    assert refused(state, 1, play("6S")).code == "wrong_combination"
    assert refused(state, 1, play("4S 4H")).code == "combination_too_low"
    state, events = play_out(state, [(1, play("6S 6H"))])
    assert events[0].combination == "pair"


def test_eight_of_a_kind_is_never_beaten() -> None:
    threes = "3S 3S 3H 3H 3D 3D 3C 3C"
    fours = "4S 4S 4H 4H 4D 4D 4C 4C"
    state = deal([threes + " 5S", fours + " 6S", "9S 10S JS QS KS 7H", "8S 8H"])
    state, events = play_out(state, [(0, play(threes))])
    assert events[0].bonus == 20
    assert refused(state, 1, play(fours)).code == "combination_too_low"
    assert refused(state, 2, play("9S 10S JS QS KS")).code == "not_your_turn"
    assert RULES.legal_commands(state.table, 1) == [PASS]


def test_going_out_passes_the_lead_on_and_no_alliance_forms_on_an_inherited_lead() -> None:
    state = deal(["3S 2S", "5S 7S", "5H 8H", "6H 9H"])
    state, events = play_out(state, [*WON_FIRST_TRICK, (0, play("2S"))])
    assert events[-1] == PlayerWentOut(seat=0, place=1)
    assert to_act(state) == (1,)
    state, events = play_out(state, [(1, PASS), (2, PASS), (3, PASS)])
    assert events[-3:] == [
        TurnPassed(seat=3),
        TrickWon(trick=2, seat=0, cards=("2S",), points=0),
        LeadInherited(seat=1, from_seat=0),
    ]
    assert to_act(state) == (1,)
    assert view(state).lead_kind == "inherited"
    state, _ = play_out(state, [(1, play("5S"))])
    assert refused(state, 2, play("5H")).code == "no_alliance_on_this_lead"
    # The hand goes on with three players: seat 0 is skipped from now on.
    state, _ = play_out(state, [(2, play("8H")), (3, play("9H"))])
    assert to_act(state) == (1,)


def test_the_lead_skips_every_player_who_has_gone_out() -> None:
    state = deal(["3S 2S", "4S", "5H 6H", "4H 7H"])
    moves = [(0, play("3S")), (1, play("4S"))]  # seat 1 is out
    moves += [(2, PASS), (3, PASS), (0, play("2S"))]  # seat 0 is out on top
    state, events = play_out(state, moves)
    assert [e for e in events if isinstance(e, PlayerWentOut)] == [
        PlayerWentOut(seat=1, place=1),
        PlayerWentOut(seat=0, place=2),
    ]
    state, events = play_out(state, [(2, PASS), (3, PASS)])
    assert events[-1] == LeadInherited(seat=2, from_seat=0)


# --- a full hand and its score -----------------------------------------------------------------


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


# --- the dealer's bury -------------------------------------------------------------------------


BURY_HANDS = ["3S 4S 5S 6S KD", "7S 8S", "9S 10S"]


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


# --- the deal ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "size", "dealer_size"), [(3, 34, 36), (4, 26, 26), (5, 20, 24), (6, 17, 19)]
)
def test_the_deal_gives_the_dealer_the_surplus(seats: int, size: int, dealer_size: int) -> None:
    """Judgement call double-heartbeat/deal-cut."""
    options = msgspec.convert({}, RULES.options_type)
    stream = RandomStream(SEED, "g", [""] * seats)
    events = RULES.start(RULES.setup(options, seats), Turn(NOW, stream, 1))
    drawn, dealt = events
    assert isinstance(drawn, FirstDealerDrawn)
    assert drawn.seat == stream.choice("first-dealer", range(seats))
    assert isinstance(dealt, HandDealt)
    assert (dealt.hand, dealt.dealer) == (1, drawn.seat)
    sizes = [len(secret.value) for secret in dealt.hands]
    assert sizes == [dealer_size if s == drawn.seat else size for s in range(seats)]
    assert [secret.owner for secret in dealt.hands] == list(range(seats))
    assert Counter(card for secret in dealt.hands for card in secret.value) == Counter(
        double_deck()
    )
    deck = stream.shuffle("deal/1", double_deck())
    assert tuple(card for secret in dealt.hands for card in secret.value) == deck


# --- leaving -----------------------------------------------------------------------------------


LEAVE_HANDS = ["3S 4S 5S", "6S 7S", "8S 9S", "10S JS"]


def test_a_seat_that_left_is_skipped() -> None:
    """Judgement call double-heartbeat/leaver-skipped."""
    state, events = play_out(deal(LEAVE_HANDS), [(0, play("3S")), (1, Leave())])
    assert events[-1:] == [PlayerLeft(seat=1)]
    assert to_act(state) == (2,)
    state, events = play_out(state, [(2, PASS), (3, PASS)])
    assert events[-1] == TrickWon(trick=1, seat=0, cards=("3S",), points=0)


def test_a_leader_who_leaves_passes_the_lead_on() -> None:
    _state, events = play_out(deal(LEAVE_HANDS), [(0, Leave())])
    assert events == [PlayerLeft(seat=0), LeadInherited(seat=1, from_seat=0)]


def test_a_play_still_wins_after_its_player_leaves() -> None:
    """Judgement call double-heartbeat/leaver-play-stands."""
    state, _ = play_out(deal(LEAVE_HANDS), [(0, play("3S")), (0, Leave())])
    assert to_act(state) == (1,)
    _state, events = play_out(state, [(1, PASS), (2, PASS), (3, PASS)])
    assert events[-2:] == [
        TrickWon(trick=1, seat=0, cards=("3S",), points=0),
        LeadInherited(seat=1, from_seat=0),
    ]


def test_leaving_as_the_last_to_pass_ends_the_trick() -> None:
    moves = [(0, play("3S")), (1, PASS), (2, PASS), (3, Leave())]
    _state, events = play_out(deal(LEAVE_HANDS), moves)
    assert events[-2:] == [PlayerLeft(seat=3), TrickWon(trick=1, seat=0, cards=("3S",), points=0)]


def test_when_one_seated_player_holds_cards_the_hand_ends() -> None:
    """Judgement call double-heartbeat/leaver-ends-hand: with two seats still at the table, the
    hand ends once only one of them holds cards; that player is last (−5)."""
    state = deal(["3S 4S", "5S", "7S 8S"], options={"dealer_exchange": "none", "hands": 1})
    state, events = play_out(state, [(0, play("3S")), (1, play("5S")), (2, Leave())])
    assert events[-3:] == [
        PlayerLeft(seat=2),
        HandSettled(hand=1, order=(1,), last=0, buried=(), points=(-5, 10, 0)),
        GameFinished(scores=(-5, 10, 0), winners=(1,), seed=SEED.hex()),
    ]
    assert state.status == "finished"


def test_a_lone_player_wins_by_forfeit_and_is_not_scored_last() -> None:
    """RULES.md Leaving (issue 13, item 5): when fewer than two seats remain the game ends with
    reason forfeit; the hand in play is not settled, so the last seat is not given −5. Judgement
    call common/forfeit-ends-at-once."""
    state = deal(["3S 4S", "5S 6S", "7S 8S"], options={"dealer_exchange": "none", "hands": 3})
    state, events = play_out(state, [(0, play("3S")), (1, Leave()), (2, Leave())])
    assert events[-2:] == [
        PlayerLeft(seat=2),
        GameFinished(scores=(0, 0, 0), winners=(0,), seed=SEED.hex(), reason="forfeit"),
    ]
    assert state.status == "finished"


# --- commands that are malformed or not allowed ------------------------------------------------


@pytest.mark.parametrize(
    ("command", "code", "failure"),
    [
        (play("ZZ"), "unknown_card", Failure.INVALID),
        (play("BJ"), "card_not_in_hand", Failure.CONFLICT),
        (play(""), "empty_play", Failure.INVALID),
        (play("3S 3S"), "card_not_in_hand", Failure.CONFLICT),
        (play("3S 5S"), "not_a_combination", Failure.INVALID),
        (play("3S", "pair"), "combination_mismatch", Failure.INVALID),
        (BuryCards(cards=[]), "not_bury_phase", Failure.CONFLICT),
    ],
)
def test_bad_plays_are_refused(command: Command, code: str, failure: Failure) -> None:
    error = refused(deal(LEAVE_HANDS), 0, command)
    assert (error.code, error.failure) == (code, failure)


def test_a_command_body_must_name_a_known_combination() -> None:
    with pytest.raises(RuleViolation) as error:
        parse_command(RULES.commands, {"type": "play", "cards": ["3S"], "combination": "rocket"})
    assert error.value.code == "invalid_command"


@pytest.mark.parametrize(
    ("seats", "options", "code"),
    [
        (2, None, "invalid_seat_count"),
        (7, None, "invalid_seat_count"),
        (4, {"hands": 0}, "invalid_option"),
        (4, {"hands": 21}, "invalid_option"),
        (4, {"betrayal": "maybe"}, "invalid_option"),
        (4, {"dealer_exchange": "swap"}, "invalid_option"),
        (4, {"jokers": "zero"}, "unknown_option"),
    ],
)
def test_creation_is_validated(seats: int, options: dict[str, Any] | None, code: str) -> None:
    refused = refused_creation(V, seats, options)
    assert (refused.code, refused.failure) == (code, Failure.INVALID)


def test_defaults_are_the_first_listed_values() -> None:
    events = game.create(
        game_id="g",
        variant_id=V,
        seat_count=5,
        options=None,
        creator_id="p",
        creator_name="P",
        client_seed="",
        seed=SEED,
    )
    assert events[0].options == {"dealer_exchange": "bury", "betrayal": "allowed", "hands": None}


# --- what a seat may do and see -----------------------------------------------------------------


def test_legal_commands_list_one_representative_per_combination() -> None:
    state = deal(["3S 3H 4S", "5S 5H 3D", "6S", "7S"])
    assert RULES.legal_commands(state.table, 0) == [
        PlayCombination(cards=["3S"], combination="single"),
        PlayCombination(cards=["4S"], combination="single"),
        PlayCombination(cards=["3S", "3H"], combination="pair"),
    ]
    assert RULES.legal_commands(state.table, 1) == []
    state, _ = play_out(state, [(0, play("3S 3H"))])
    assert RULES.legal_commands(state.table, 1) == [
        PASS,
        PlayCombination(cards=["5S", "5H"], combination="pair"),
    ]


def test_views_hide_other_hands_and_sort_the_own_hand() -> None:
    state = deal(["4S 3H 2S", "5S", "6S", "7S"])
    assert RULES.hand(state.table, 0) == ("3H", "4S", "2S")
    assert RULES.hand_sizes(state.table) == (3, 1, 1, 1)
    shown = msgspec.json.encode(view(state, Perspective(seat=1)))
    assert b"4S" not in shown
    assert b"3H" not in shown


def test_a_dealer_who_leaves_before_burying_buries_nothing() -> None:
    """Judgement call double-heartbeat/dealer-leaves-bury."""
    state, events = play_out(deal(BURY_HANDS), [(0, Leave())])
    assert events == [PlayerLeft(seat=0), LeadInherited(seat=1, from_seat=0)]
    assert (view(state).phase, view(state).buried_count, to_act(state)) == ("play", 0, (1,))


def test_the_deal_moves_to_the_next_seat_still_at_the_table() -> None:
    """Judgement call double-heartbeat/dealer-skips-leavers: seat 1 has left, so the deal
    passes from seat 0 to seat 2."""
    state = deal(["3S 4S", "5S", "6S", "7S 8S"], options={"hands": 2})
    moves = [(1, Leave()), (0, play("3S")), (2, play("6S")), (3, play("7S")), (0, PASS)]
    state, events = play_out(state, [*moves, (3, play("8S"))])
    settled, dealt = events[-2:]
    assert settled == HandSettled(hand=1, order=(2, 3), last=0, buried=(), points=(-5, 0, 10, 5))
    assert isinstance(dealt, HandDealt) and (dealt.hand, dealt.dealer) == (2, 2)
