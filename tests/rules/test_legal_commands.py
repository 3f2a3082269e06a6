"""Legal commands are complete and sendable (issues 13 and 21): every entry of a view's
``legal_commands`` is a command to send as it is, every kind of play has one, and where a kind
has too many to list its choice form expands to exactly its legal commands (the brute-force
checks of that are in test_choice_forms_exact.py)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import msgspec
import pytest

from domain import game_state
from domain.cards import double_deck
from domain.choices import (
    Choice,
    commands_of,
    count_picks,
    nth_pick,
    pick,
    representatives,
    split,
)
from domain.commands import COMMON_COMMANDS, Command, PlayCard, VoteCancel, parse_command
from domain.events import GameStarted, HandDealt, Secret
from domain.game_state import GameState
from domain.perspective import Perspective
from domain.variants.cancellation_hearts import CancellationHearts
from domain.variants.cancellation_hearts.messages import PassCards
from domain.variants.double_heartbeat import DoubleHeartbeat
from domain.variants.double_heartbeat.combinations import classify, read
from domain.variants.double_heartbeat.messages import BuryCards, PassTurn, PlayCombination
from domain.variants.double_heartbeat.rules import refusal_of
from projections.views import view
from tests.rules.scenario import created, given, when

DH = DoubleHeartbeat()
CH = CancellationHearts()


def sub_multisets(cards: list[str], sizes: range) -> set[tuple[str, ...]]:
    return {
        tuple(sorted(chosen)) for size in sizes for chosen in itertools.combinations(cards, size)
    }


def cards_of(command: Any) -> tuple[str, ...]:
    return tuple(sorted(command.cards))


def served(state: GameState, seat: int) -> dict[str, Any]:
    """The seat's view as a client receives it (JSON)."""
    mine = view(state, version=9, chain_head="h", perspective=Perspective(seat=seat))
    decoded: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(mine))
    return decoded


def sent(state: GameState, seat: int, body: dict[str, Any]) -> list[Any]:
    """A body sent exactly as a client would: parsed as the service parses it, then decided."""
    command = parse_command((*COMMON_COMMANDS, *state.rules.commands), body)
    return when(state, seat, command)


# --- choice forms themselves -------------------------------------------------------------------


def test_a_choice_counts_and_unranks_every_distinct_pick_once() -> None:
    rng = random.Random(5)
    for _ in range(200):
        options = [(rng.choice("ABCDEFG"),) for _ in range(rng.randint(0, 9))]
        least = rng.randint(0, 4)
        most = rng.randint(least, 5)
        expected = sub_multisets([o[0] for o in options], range(least, most + 1))
        count = count_picks(options, least, most)
        assert count == len(expected)
        picks = [tuple(sorted(nth_pick(options, least, most, i))) for i in range(count)]
        assert set(picks) == expected and len(picks) == count


def form_of(cards: tuple[str, ...], least: int, most: int) -> Choice:
    options = tuple((card,) for card in cards)
    return Choice(
        command=PassCards(cards=()),
        field="cards",
        options=options,
        min=least,
        max=most,
        count=count_picks(options, least, most),
    )


def test_a_uniform_pick_weighs_a_form_by_the_commands_it_holds() -> None:
    form = form_of(("2S", "3S", "4S", "5S", "6S"), 3, 3)
    entries: list[Command | Choice] = [PlayCard(card="AH"), form]
    rng = random.Random(1)
    drawn = Counter(msgspec.json.encode(pick(entries, rng)) for _ in range(11_000))
    assert len(drawn) == 11  # every command reachable
    assert min(drawn.values()) > 850 and max(drawn.values()) < 1150  # 1,000 expected each


def test_a_form_is_represented_by_its_first_entries_of_each_size() -> None:
    form = form_of(("2S", "3S", "3S", "4H"), 0, 2)
    assert representatives(form) == [
        PassCards(cards=()),
        PassCards(cards=("2S",)),
        PassCards(cards=("2S", "3S")),
    ]
    assert all(command in commands_of(form) for command in representatives(form))
    # Sizes beyond what ``from`` holds have nothing to represent them.
    assert representatives(form_of(("2S",), 0, 3)) == [
        PassCards(cards=()),
        PassCards(cards=("2S",)),
    ]


def test_split_lists_commands_in_place_of_each_form_and_the_forms_apart() -> None:
    form = form_of(("2S", "3S", "4S"), 1, 1)
    listed = split([PlayCard(card="AH"), form, VoteCancel()])
    # Of a form of single picks, the first entry alone; the form itself apart.
    assert listed.commands == [PlayCard(card="AH"), PassCards(cards=("2S",)), VoteCancel()]
    assert listed.forms == [form]


# --- Cancellation Hearts: the pass ---------------------------------------------------------------

SEVENTEEN = ("2S", "5S", "9S", "QS", "3H", "7H", "JH", "AH", "4D", "8D", "KD", "6C", "10C")
SEVENTEEN += ("JC", "QC", "KC", "AC")


def passing(hand: tuple[str, ...], seats: int = 6) -> GameState:
    """Seat 0 holds ``hand``; the others share the rest of the deck as it comes."""
    size = len(hand)
    deck = Counter(double_deck()) - Counter(hand)
    rest = list(deck.elements())
    hands = [hand, *(tuple(rest[size * i : size * i + size]) for i in range(seats - 1))]
    dealt = HandDealt(
        hand=1,
        dealer=0,
        hands=tuple(Secret(owner=s, value=h) for s, h in enumerate(hands)),
        rest=Secret(owner=None, value=tuple(rest[size * (seats - 1) :])),
    )
    return given([*created("cancellation-hearts", seats), GameStarted(seat_count=seats), dealt])


def test_the_pass_form_holds_all_680_passes_of_seventeen_cards() -> None:
    """Issue 13, item 6: 30 of the 680 three-card passes were listed. Judgement call
    cancellation-hearts/pass-choice-form."""
    state = passing(SEVENTEEN)
    (form,) = CH.legal_moves(state.table, 0)
    assert isinstance(form, Choice) and form.count == 680
    commands = commands_of(form)
    assert {cards_of(c) for c in commands} == sub_multisets(list(SEVENTEEN), range(3, 4))
    for command in commands[::17]:
        when(state, 0, command)  # each is taken


def test_a_pass_from_a_hand_holding_a_card_twice_counts_it_once() -> None:
    hand = ("QS", "QS", *SEVENTEEN[:15])  # QS twice: a double deck
    state = passing(hand)
    (form,) = CH.legal_moves(state.table, 0)
    assert isinstance(form, Choice)
    expected = sub_multisets(list(hand), range(3, 4))
    assert form.count == len(expected) == len({cards_of(c) for c in commands_of(form)})
    when(state, 0, PassCards(cards=("QS", "QS", "2S")))


def test_the_view_lists_a_pass_to_send_and_the_form_apart() -> None:
    """Issue 21: the pass was listed only as a form, which answers 422 when sent as listed."""
    state = passing(SEVENTEEN)
    mine = served(state, 0)
    first_three = list(state.table.hands[0][:3])
    assert mine["legal_commands"] == [
        {"type": "pass_cards", "cards": first_three},
        {"type": "vote_cancel"},
        {"type": "leave"},
    ]
    (form,) = mine["choice_forms"]
    assert form["type"] == "choice" and form["command"] == {"type": "pass_cards", "cards": []}
    assert (form["field"], form["min"], form["max"], form["count"]) == ("cards", 3, 3, 680)
    assert form["from"] == [[card] for card in state.table.hands[0]]
    (passed, *_) = sent(state, 0, mine["legal_commands"][0])
    assert passed.cards.value == tuple(first_three)


# --- Double Heartbeat: the bury and every play ---------------------------------------------------


def dealt_dh(hands: list[str], dealer: int = 0, options: dict[str, Any] | None = None) -> GameState:
    deal = HandDealt(
        hand=1,
        dealer=dealer,
        hands=tuple(Secret(owner=s, value=tuple(h.split())) for s, h in enumerate(hands)),
        rest=Secret(owner=None, value=()),
    )
    setup = created("double-heartbeat", len(hands), {"hands": 1, **(options or {})})
    return given([*setup, GameStarted(seat_count=len(hands)), deal])


def test_the_bury_form_holds_every_bury_and_the_list_one_of_each_size() -> None:
    """Issue 13, item 6: the bury listed 5 prefixes of the sorted hand; issue 21: then only
    as a form, which cannot be sent."""
    hand = "3S 3S 4H 7D 9C 9C JH KS AD 2C"
    state = dealt_dh([hand, "5S", "6S"])  # 3 players: the dealer may bury 0..2
    (form,) = DH.legal_moves(state.table, 0)
    assert isinstance(form, Choice) and isinstance(form.command, BuryCards)
    expected = sub_multisets(hand.split(), range(3))
    commands = commands_of(form)
    assert form.count == len(commands) == len(expected)
    assert {cards_of(c) for c in commands} == expected
    for command in commands:
        when(state, 0, command)
    mine = served(state, 0)
    buries = [c for c in mine["legal_commands"] if c["type"] == "bury"]
    assert buries == [  # the lowest cards, each size once
        {"type": "bury", "cards": []},
        {"type": "bury", "cards": ["3S"]},
        {"type": "bury", "cards": ["3S", "3S"]},
    ]
    for body in buries:
        sent(state, 0, body)
    assert [f["command"]["type"] for f in mine["choice_forms"]] == ["bury"]


def key(cards: tuple[str, ...], kind: str) -> tuple[Any, ...]:
    combination = read(cards, kind)  # type: ignore[arg-type]
    ranks = tuple(sorted(Counter(card[:-1] for card in cards).items()))
    return combination.kind, combination.count, combination.top, ranks


def plays_in(commands: list[Command]) -> set[tuple[Any, ...]]:
    keys = set()
    for command in commands:
        if isinstance(command, PlayCombination):
            assert command.combination is not None
            keys.add(key(tuple(command.cards), command.combination))
    return keys


def listed_plays(state: GameState, seat: int) -> set[tuple[Any, ...]]:
    """What the seat is offered: its listed commands and every command of its forms."""
    listed = split(DH.legal_moves(state.table, seat))
    return plays_in([*listed.commands, *(c for f in listed.forms for c in commands_of(f))])


def every_legal_play(state: GameState, seat: int) -> set[tuple[Any, ...]]:
    """The oracle: every set of held cards, every type it reads as, kept if the rules allow it."""
    hand = list(state.table.hands[seat])
    keys = set()
    for cards in sub_multisets(hand, range(1, len(hand) + 1)):
        for reading in classify(cards):
            if refusal_of(state.table, seat, reading) is None:
                keys.add(key(cards, reading.kind))
    return keys


def kinds(plays: set[tuple[Any, ...]]) -> set[tuple[Any, ...]]:
    """Kinds of play: combination type, card count and top rank."""
    return {play[:3] for play in plays}


AIRPLANE_HAND = "3S 3H 3D 4S 4H 4D 5S 5H 6S 6H 7S 7S"


def test_an_airplane_offers_every_choice_of_wings_and_lists_the_lowest() -> None:
    """Issue 13, item 6: one airplane-with-pairs was listed per chain, whatever the wings;
    issue 21: then only as a form."""
    state = dealt_dh([AIRPLANE_HAND, "8S", "9S", "10S"])  # 4 players: no bury
    forms = [m for m in DH.legal_moves(state.table, 0) if isinstance(m, Choice)]
    (airplane,) = forms
    assert (airplane.min, airplane.max, airplane.count) == (2, 2, 3)  # wings 55 66, 55 77, 66 77
    wings = {tuple(sorted(c.cards)) for c in commands_of(airplane)}
    assert len(wings) == 3
    for command in commands_of(airplane):
        when(state, 0, command)
    planes = [
        c
        for c in DH.legal_commands(state.table, 0)
        if isinstance(c, PlayCombination) and c.combination == "airplane_pairs"
    ]
    assert planes == [  # the lowest wings
        PlayCombination(
            cards=["3S", "3H", "3D", "4S", "4H", "4D", "5S", "5H", "6S", "6H"],
            combination="airplane_pairs",
        )
    ]


@pytest.mark.parametrize("seed", range(12))
def test_every_legal_play_is_offered_and_every_kind_listed(seed: int) -> None:
    """Judgement call double-heartbeat/one-representative: one set of cards per distinct
    combination (type, count, ranks), and nothing legal missing; checked against every set of
    held cards, on the lead and over a top. Issue 21: every kind (type, count, top) has a
    command in ``legal_commands`` itself."""
    rng = random.Random(seed)
    ranks = rng.sample(["3", "4", "5", "6", "7", "8", "9", "10"], 5)
    pool = [r + s for r in ranks for s in "SHDC" for _ in range(2)]
    hand = rng.sample(pool, 12)
    lead_hand = rng.sample([c for c in double_deck() if c not in hand], 10)
    state = dealt_dh([" ".join(lead_hand), " ".join(hand), "2S", "2H"])
    for seat in (0, 1):
        if seat == 1:
            lead = rng.choice(DH.legal_commands(state.table, 0))
            state = game_state.fold(state, when(state, 0, lead))
            assert state.rules.to_act(state.table) == (1,)  # seat 1 answers a top
            assert PassTurn() in DH.legal_commands(state.table, 1)
        legal = every_legal_play(state, seat)
        assert listed_plays(state, seat) == legal
        assert kinds(plays_in(DH.legal_commands(state.table, seat))) == kinds(legal)


def test_every_listed_command_and_form_command_is_taken_as_served() -> None:
    state = dealt_dh([AIRPLANE_HAND, "8S", "9S", "10S"])
    mine = served(state, 0)
    assert [form["command"]["type"] for form in mine["choice_forms"]] == ["play"]
    assert {"type": "vote_cancel"} in mine["legal_commands"]
    for body in mine["legal_commands"]:
        sent(state, 0, body)
    # A bot drawing uniformly from everything offered reaches every command, each taken.
    moves = DH.legal_moves(state.table, 0)
    plain = [m for m in moves if not isinstance(m, Choice)]
    total = len(plain) + sum(form["count"] for form in mine["choice_forms"])
    rng = random.Random(2)
    reached = {msgspec.json.encode(pick(moves, rng)) for _ in range(40 * total)}
    assert len(reached) == total
    assert {msgspec.json.encode(c) for c in DH.legal_commands(state.table, 0)} <= reached
    for encoded in reached:
        sent(state, 0, msgspec.json.decode(encoded))
