"""Cancellation Hearts (RULES.md §4) as scenarios: given events → when a command → then events."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
import pytest

from domain import game, game_state
from domain.cards import RANKS, double_deck
from domain.commands import Command, Leave, PlayCard, parse_command
from domain.errors import Failure, RuleViolation
from domain.events import Event, GameFinished, GameStarted, HandDealt, PlayerLeft, Secret
from domain.fairness import RandomStream
from domain.game_state import GameState
from domain.perspective import PUBLIC, Perspective, redact
from domain.variant import Turn
from domain.variants.cancellation_hearts import CancellationHearts
from domain.variants.cancellation_hearts.messages import (
    CardsPassed,
    ChooseMoon,
    MoonShot,
    PassCards,
    PassesDelivered,
    PenaltiesScored,
    TrickResolved,
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

VARIANT = "cancellation-hearts"
RULES = CancellationHearts()
KITTY_SIZES = {6: 2, 7: 6, 8: 0, 9: 5, 10: 4, 11: 5}


# --- helpers ------------------------------------------------------------------------------------


def dealt(
    hands: list[tuple[str, ...]], kitty: tuple[str, ...] = (), *, hand: int = 1, dealer: int = 0
) -> HandDealt:
    return HandDealt(
        hand=hand,
        dealer=dealer,
        hands=tuple(Secret(owner=s, value=cards) for s, cards in enumerate(hands)),
        rest=Secret(owner=None, value=kitty),
    )


def begin(
    hands: list[tuple[str, ...]],
    kitty: tuple[str, ...] = (),
    options: dict[str, Any] | None = None,
    *,
    hand: int = 1,
    history: tuple[Event, ...] = (),
) -> list[Event]:
    """A game whose deal of hand ``hand`` is given; ``history`` goes before that deal."""
    count = len(hands)
    return [
        *created(VARIANT, count, options),
        GameStarted(seat_count=count),
        *history,
        dealt(hands, kitty, hand=hand, dealer=(hand - 1) % count),
    ]


def passing(hands: list[tuple[str, ...]], **kwargs: Any) -> GameState:
    return given(begin(hands, **kwargs))


def playing(hands: list[tuple[str, ...]], kitty: tuple[str, ...] = (), **kwargs: Any) -> GameState:
    """Play about to start with exactly these hands (their pass is already done: a delivery of
    nothing, so the hands given are the hands played)."""
    events = begin(hands, kitty, **kwargs)
    count = len(hands)
    hand = kwargs.get("hand", 1)
    nothing = tuple(Secret(owner=s, value=()) for s in range(count))
    delivered = PassesDelivered(
        hand=hand, direction="left", senders=(None,) * count, received=nothing
    )
    return given([*events, delivered])


def play(card: str) -> PlayCard:
    return PlayCard(card=card)


def plays(state: GameState, *moves: tuple[int, str]) -> tuple[GameState, list[Event]]:
    return play_out(state, [(seat, play(card)) for seat, card in moves])


def of_type(events: list[Event], kind: type[Event]) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


def to_act(state: GameState) -> tuple[int, ...]:
    return RULES.to_act(state.table)


def legal_cards(state: GameState, seat: int) -> list[str]:
    return [c.card for c in RULES.legal_commands(state.table, seat) if isinstance(c, PlayCard)]


# --- the deal -----------------------------------------------------------------------------------


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


# --- passing ------------------------------------------------------------------------------------

SIX = [
    ("2S", "3S", "4S"),
    ("2H", "3H", "4H"),
    ("2D", "3D", "4D"),
    ("2C", "3C", "4C"),
    ("5S", "6S", "7S"),
    ("5D", "6D", "7D"),
]


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
    turn = Turn(NOW, game.stream(state), 1)
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
    stream = game.stream(state)
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


# --- leading and following ----------------------------------------------------------------------


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


# --- hearts broken ------------------------------------------------------------------------------

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


# --- cancellation -------------------------------------------------------------------------------


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


# --- scoring and the moon -----------------------------------------------------------------------


def moon_hands() -> tuple[list[tuple[str, ...]], tuple[str, ...]]:
    """Seat 1 leads six clubs; everybody else is void in clubs and throws points on them."""
    points = [r + "H" for r in RANKS for _ in range(2)] + ["QS", "QS"]
    points.remove("AH")  # one ace of hearts waits in the kitty
    others = [*points, "2D", "3D", "4D"]
    hands: list[tuple[str, ...]] = [()] * 6
    hands[1] = ("2C", "3C", "4C", "5C", "6C", "7C")
    for index, seat in enumerate((2, 3, 4, 5, 0)):
        hands[seat] = tuple(others[index * 6 : (index + 1) * 6])
    return hands, ("AH", "8C")


def shoot_the_moon(options: dict[str, Any]) -> tuple[GameState, list[Event]]:
    hands, kitty = moon_hands()
    state = playing(hands, kitty, options=options)
    events: list[Event] = []
    for trick in range(6):
        moves = [(1, hands[1][trick])] + [(s, hands[s][trick]) for s in (2, 3, 4, 5, 0)]
        state, new = plays(state, *moves)
        events += new
    return state, events


def test_shooting_the_moon_asks_the_shooter_by_default() -> None:
    state, events = shoot_the_moon({})
    assert isinstance(events[-1], MoonShot)
    assert events[-1] == MoonShot(hand=1, seat=1)
    assert not of_type(events, PenaltiesScored)
    assert to_act(state) == (1,)
    assert RULES.legal_commands(state.table, 1) == [
        ChooseMoon(choice="subtract"),
        ChooseMoon(choice="add"),
    ]
    assert refused(state, 2, ChooseMoon(choice="add")).code == "no_moon_choice"
    assert RULES.legal_commands(state.table, 2) == []


@pytest.mark.parametrize(
    ("choice", "points"),
    [("subtract", (0, -26, 0, 0, 0, 0)), ("add", (26, 0, 26, 26, 26, 26))],
)
def test_the_shooter_chooses_subtract_or_add(choice: str, points: tuple[int, ...]) -> None:
    state, _ = shoot_the_moon({})
    state, events = play_out(state, [(1, ChooseMoon(choice=choice))])
    scored, next_deal = events
    assert scored == PenaltiesScored(
        hand=1,
        taken=(0, 52, 0, 0, 0, 0),
        moon=1,
        moon_choice=choice,
        points=points,
        totals=points,
    )
    assert isinstance(next_deal, HandDealt) and (next_deal.hand, next_deal.dealer) == (2, 1)
    assert RULES.scores(state.table) == points
    assert [row.points for row in RULES.score_rows(state.table)] == [points]


@pytest.mark.parametrize(
    ("options", "points"),
    [
        ({"moon": "subtract"}, (0, -26, 0, 0, 0, 0)),
        ({"moon": "add"}, (26, 0, 26, 26, 26, 26)),
        ({"moon": "subtract", "moon_points": 40}, (0, -40, 0, 0, 0, 0)),
        ({"moon": "add", "moon_points": 13}, (13, 0, 13, 13, 13, 13)),
    ],
)
def test_a_fixed_moon_rule_scores_at_once(options: dict[str, Any], points: tuple[int, ...]) -> None:
    _state, events = shoot_the_moon(options)
    (scored,) = of_type(events, PenaltiesScored)
    assert not of_type(events, MoonShot)
    assert (scored.moon, scored.moon_choice, scored.points) == (1, options["moon"], points)


def test_a_shooter_who_leaves_before_choosing_gets_subtract() -> None:
    """Judgement call cancellation-hearts/leaver-moon-subtracts."""
    state, _ = shoot_the_moon({})
    _state, events = play_out(state, [(1, Leave())])
    assert events[0] == PlayerLeft(seat=1)
    assert isinstance(events[1], PenaltiesScored)
    assert events[1].moon_choice == "subtract"


def test_no_moon_without_the_kitty_heart() -> None:
    hands, _kitty = moon_hands()
    state = playing(hands, ("2S", "8C"))
    for trick in range(6):
        moves = [(1, hands[1][trick])] + [(s, hands[s][trick]) for s in (2, 3, 4, 5, 0)]
        state, events = plays(state, *moves)
    (scored,) = of_type(events, PenaltiesScored)
    assert (scored.taken[1], scored.moon, scored.points[1]) == (51, None, 51)


# --- the end of the match -----------------------------------------------------------------------

# Hand 2 (dealer 1): seat 2 leads a club and takes five hearts.
LAST_HANDS = [("5H",), ("6H",), ("2C",), ("2H",), ("3H",), ("4H",)]


def before_hand_two(totals: tuple[int, ...], target: int = 50) -> GameState:
    scored = PenaltiesScored(
        hand=1, taken=totals, moon=None, moon_choice=None, points=totals, totals=totals
    )
    return playing(LAST_HANDS, hand=2, options={"target": target}, history=(scored,))


def finish_hand_two(state: GameState) -> list[Event]:
    _state, events = plays(state, (2, "2C"), (3, "2H"), (4, "3H"), (5, "4H"), (0, "5H"), (1, "6H"))
    return events


def test_the_match_ends_once_a_total_reaches_the_target_and_the_lowest_wins() -> None:
    """Judgement call cancellation-hearts/target-checked-after-hand."""
    events = finish_hand_two(before_hand_two((30, 21, 45, 20, 35, 40)))
    scored, finished = events[-2:]
    assert isinstance(scored, PenaltiesScored) and scored.totals == (30, 21, 50, 20, 35, 40)
    assert finished == GameFinished(scores=(30, 21, 50, 20, 35, 40), winners=(3,), seed=SEED.hex())


def test_a_tie_for_the_lowest_total_is_shared() -> None:
    events = finish_hand_two(before_hand_two((30, 20, 45, 20, 35, 40)))
    assert events[-1] == GameFinished(
        scores=(30, 20, 50, 20, 35, 40), winners=(1, 3), seed=SEED.hex()
    )


def test_below_the_target_the_next_hand_is_dealt() -> None:
    state = before_hand_two((30, 20, 44, 20, 35, 40), target=150)
    events = finish_hand_two(state)
    assert isinstance(events[-1], HandDealt)
    assert (events[-1].hand, events[-1].dealer) == (3, 2)
    final = game_state.fold(state, events)
    assert final.status == "active"
    assert [row.label for row in RULES.score_rows(final.table)] == ["hand 1", "hand 2"]
    assert [row.points for row in RULES.score_rows(final.table)] == [
        (30, 20, 44, 20, 35, 40),
        (0, 0, 5, 0, 0, 0),
    ]
    assert RULES.scores(final.table) == (30, 20, 49, 20, 35, 40)


# --- leaving ------------------------------------------------------------------------------------


def test_a_seat_leaving_during_the_pass_takes_no_part_in_it() -> None:
    """Judgement calls cancellation-hearts/pass-among-seated,
    cancellation-hearts/leaver-pass-returns."""
    state = passing(SIX)
    state, _ = play_out(state, [(3, PassCards(cards=SIX[3])), (3, Leave())])
    assert RULES.hand(state.table, 3) == SIX[3]  # its pass came back
    moves: list[tuple[int, Command]] = [(s, PassCards(cards=SIX[s])) for s in (0, 1, 2, 4)]
    state, events = play_out(state, moves)
    assert not of_type(events, PassesDelivered)
    state, events = play_out(state, [(5, PassCards(cards=SIX[5]))])
    (delivered,) = of_type(events, PassesDelivered)
    assert delivered.senders == (5, 0, 1, None, 2, 4)
    assert delivered.received[3].unwrap() == ()
    assert delivered.received[4].unwrap() == SIX[2]


def test_the_last_pass_awaited_leaving_delivers_the_others() -> None:
    state = passing(SIX)
    moves: list[tuple[int, Command]] = [(s, PassCards(cards=SIX[s])) for s in range(5)]
    state, _ = play_out(state, [*moves, (5, Leave())])
    assert RULES.public_table(state.table, PUBLIC).phase == "playing"
    assert RULES.hand(state.table, 0) == SIX[4]


def test_a_seat_that_left_is_skipped_in_play_and_its_card_still_counts() -> None:
    """Judgement call cancellation-hearts/leaver-card-stays."""
    hands = [("5C", "2D"), ("2C", "3D"), ("3C", "4D"), ("AC", "5D"), ("4C", "6D"), ("6C", "7D")]
    state, _ = plays(playing(hands), (1, "2C"), (2, "3C"), (3, "AC"))
    state, events = play_out(state, [(3, Leave())])
    assert events == [PlayerLeft(seat=3)]
    state, events = plays(state, (4, "4C"), (5, "6C"), (0, "5C"))
    (resolved,) = of_type(events, TrickResolved)
    assert resolved.winner == 3
    assert to_act(state) == (4,)  # the winner left: the next seat at the table leads


def test_the_last_awaited_player_leaving_completes_the_trick() -> None:
    hands = [("5C", "2D"), ("2C", "3D"), ("3C", "4D"), ("AC", "5D"), ("4C", "6D"), ("6C", "7D")]
    state, _ = plays(playing(hands), (1, "2C"), (2, "3C"), (3, "AC"), (4, "4C"), (5, "6C"))
    _state, events = play_out(state, [(0, Leave())])
    assert [type(e) for e in events] == [PlayerLeft, TrickResolved]
    assert events[1].winner == 3


def test_with_one_seat_left_at_the_table_the_match_ends_and_leavers_never_win() -> None:
    state = passing(SIX)
    state, events = play_out(state, [(s, Leave()) for s in range(5)])
    finished = events[-1]
    assert finished == GameFinished(
        scores=(0,) * 6, winners=(5,), seed=SEED.hex(), reason="forfeit"
    )


def test_leavers_are_dealt_nothing() -> None:
    """Judgement call cancellation-hearts/deal-to-seated."""
    state = given([*created(VARIANT, 7), GameStarted(seat_count=7)])
    state = game_state.fold(state, [PlayerLeft(seat=2)])
    (deal,) = RULES.start(state.table, Turn(NOW, game.stream(state), 1))
    sizes = [len(h.unwrap()) for h in deal.hands]
    assert sizes == [17, 17, 0, 17, 17, 17, 17]
    assert len(deal.rest.unwrap()) == 2


# --- options ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "options", "code"),
    [
        (5, None, "invalid_seat_count"),
        (12, None, "invalid_seat_count"),
        (6, {"target": 49}, "invalid_option"),
        (6, {"target": 501}, "invalid_option"),
        (6, {"moon": "double"}, "invalid_option"),
        (6, {"moon_points": 0}, "invalid_option"),
        (6, {"jokers": "zero"}, "unknown_option"),
    ],
)
def test_creation_is_validated(seats: int, options: dict[str, Any] | None, code: str) -> None:
    refused = refused_creation(VARIANT, seats, options)
    assert (refused.code, refused.failure) == (code, Failure.INVALID)


def test_defaults_are_stored_in_the_creation_event() -> None:
    creation = created(VARIANT, 6)[0]
    assert creation.options == {"moon": "choose", "moon_points": 26, "target": 150}
    assert RULES.lower_score_wins


def test_the_pass_command_is_parsed_from_the_wire() -> None:
    command = parse_command(RULES.commands, {"type": "pass_cards", "cards": ["QS", "AH", "2C"]})
    assert command == PassCards(cards=("QS", "AH", "2C"))
    with pytest.raises(RuleViolation) as error:
        parse_command(RULES.commands, {"type": "pass_cards", "cards": ["QS"]})
    assert error.value.code == "invalid_command"
    moon = parse_command(RULES.commands, {"type": "moon", "choice": "add"})
    assert moon == ChooseMoon(choice="add")
