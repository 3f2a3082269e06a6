"""Legal commands are complete (issue 13, item 6): every legal move is listed, or stands in a
choice form that expands to exactly the legal commands, and a bot drawing uniformly from them
can reach every one."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import msgspec
import pytest

from domain import game
from domain.cards import double_deck, rank
from domain.choices import (
    Choice,
    body,
    commands_of,
    count_picks,
    nth_pick,
    pick,
)
from domain.commands import Command, PlayCard, parse_command
from domain.events import GameStarted, HandDealt, Secret
from domain.game import GameState
from domain.perspective import Perspective
from domain.variants.cancellation_hearts import CancellationHearts
from domain.variants.cancellation_hearts.messages import PassCards
from domain.variants.double_heartbeat import DoubleHeartbeat
from domain.variants.double_heartbeat.combinations import classify, read
from domain.variants.double_heartbeat.messages import BuryCards, PassTurn, PlayCombination
from domain.variants.double_heartbeat.rules import refusal_of
from projections.views import view
from tests.rules.scenario import NOW, created, given, player, when

DH = DoubleHeartbeat()
CH = CancellationHearts()


def sub_multisets(cards: list[str], sizes: range) -> set[tuple[str, ...]]:
    return {
        tuple(sorted(chosen)) for size in sizes for chosen in itertools.combinations(cards, size)
    }


def cards_of(command: Any) -> tuple[str, ...]:
    return tuple(sorted(command.cards))


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


def test_a_uniform_pick_weighs_a_form_by_the_commands_it_holds() -> None:
    form = Choice(
        command=PassCards(cards=()),
        field="cards",
        options=tuple((card,) for card in ("2S", "3S", "4S", "5S", "6S")),
        min=3,
        max=3,
        count=10,
    )
    entries: list[Command | Choice] = [PlayCard(card="AH"), form]
    rng = random.Random(1)
    drawn = Counter(msgspec.json.encode(pick(entries, rng)) for _ in range(11_000))
    assert len(drawn) == 11  # every command reachable
    assert min(drawn.values()) > 850 and max(drawn.values()) < 1150  # 1,000 expected each


# --- Cancellation Hearts: the pass ---------------------------------------------------------------

SEVENTEEN = ("2S", "5S", "9S", "QS", "3H", "7H", "JH", "AH", "4D", "8D", "KD", "6C", "10C")
SEVENTEEN += ("JC", "QC", "KC", "AC")


def passing(hand: tuple[str, ...]) -> GameState:
    deck = Counter(double_deck()) - Counter(hand)
    rest = list(deck.elements())
    hands = [hand, *(tuple(rest[17 * i : 17 * i + 17]) for i in range(5))]
    dealt = HandDealt(
        hand=1,
        dealer=0,
        hands=tuple(Secret(owner=s, value=h) for s, h in enumerate(hands)),
        rest=Secret(owner=None, value=tuple(rest[85:])),
    )
    return given([*created("cancellation-hearts", 6), GameStarted(seat_count=6), dealt])


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


def test_the_view_says_which_commands_come_as_choice_forms() -> None:
    state = passing(SEVENTEEN)
    seat_view = view(state, version=9, chain_head="h", perspective=Perspective(seat=0))
    assert seat_view.choice_forms == ("pass_cards",)
    served = msgspec.json.decode(msgspec.json.encode(seat_view))
    form, *plain = served["legal_commands"]
    assert plain == [{"type": "vote_cancel"}, {"type": "leave"}]  # ready to send, as before
    assert form["type"] == "choice" and form["command"] == {"type": "pass_cards", "cards": []}
    assert (form["field"], form["min"], form["max"], form["count"]) == ("cards", 3, 3, 680)
    assert form["from"] == [[card] for card in state.table.hands[0]]
    # The wire helper the HTTP bots use makes a ready-to-send body of it.
    sent = body(form, random.Random(3))
    command = parse_command(CH.commands, sent)
    assert isinstance(command, PassCards) and len(command.cards) == 3
    when(state, 0, command)


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


def test_the_bury_form_holds_every_bury_of_up_to_k_cards() -> None:
    """Issue 13, item 6: the bury listed 5 prefixes of the sorted hand."""
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


def key(cards: tuple[str, ...], kind: str) -> tuple[Any, ...]:
    combination = read(cards, kind)  # type: ignore[arg-type]
    ranks = tuple(sorted(Counter(rank(card) for card in cards).items()))
    return combination.kind, combination.count, combination.top, ranks


def listed_plays(state: GameState, seat: int) -> set[tuple[Any, ...]]:
    keys = set()
    for entry in DH.legal_moves(state.table, seat):
        for command in commands_of(entry) if isinstance(entry, Choice) else [entry]:
            if isinstance(command, PlayCombination):
                assert command.combination is not None
                keys.add(key(tuple(command.cards), command.combination))
    return keys


def every_legal_play(state: GameState, seat: int) -> set[tuple[Any, ...]]:
    """The oracle: every set of held cards, every type it reads as, kept if the rules allow it."""
    hand = list(state.table.hands[seat])
    keys = set()
    for cards in sub_multisets(hand, range(1, len(hand) + 1)):
        for reading in classify(cards):
            if refusal_of(state.table, seat, reading) is None:
                keys.add(key(cards, reading.kind))
    return keys


AIRPLANE_HAND = "3S 3H 3D 4S 4H 4D 5S 5H 6S 6H 7S 7S"


def test_an_airplane_offers_every_choice_of_wings() -> None:
    """Issue 13, item 6: one airplane-with-pairs was listed per chain, whatever the wings."""
    state = dealt_dh([AIRPLANE_HAND, "8S", "9S", "10S"])  # 4 players: no bury
    forms = [m for m in DH.legal_moves(state.table, 0) if isinstance(m, Choice)]
    (airplane,) = forms
    assert (airplane.min, airplane.max, airplane.count) == (2, 2, 3)  # wings 55 66, 55 77, 66 77
    wings = {tuple(sorted(c.cards)) for c in commands_of(airplane)}
    assert len(wings) == 3
    for command in commands_of(airplane):
        when(state, 0, command)


@pytest.mark.parametrize("seed", range(12))
def test_every_legal_play_is_listed_on_the_lead_and_over_a_top(seed: int) -> None:
    """Judgement call double-heartbeat/one-representative: one set of cards per distinct
    combination (type, count, ranks), and nothing legal missing; checked against every set of
    held cards."""
    rng = random.Random(seed)
    ranks = rng.sample(["3", "4", "5", "6", "7", "8", "9", "10"], 5)
    pool = [r + s for r in ranks for s in "SHDC" for _ in range(2)]
    hand = rng.sample(pool, 12)
    lead_hand = rng.sample([c for c in double_deck() if c not in hand], 10)
    state = dealt_dh([" ".join(lead_hand), " ".join(hand), "2S", "2H"])
    assert listed_plays(state, 0) == every_legal_play(state, 0)
    lead = rng.choice(DH.legal_moves(state.table, 0))
    state = game.fold(state, when(state, 0, lead))
    assert state.rules.to_act(state.table) == (1,)  # seat 1 answers a top: the half under test
    assert listed_plays(state, 1) == every_legal_play(state, 1)
    assert PassTurn() in DH.legal_moves(state.table, 1)


def test_a_seat_reaches_every_listed_command_through_the_views_list() -> None:
    state = dealt_dh([AIRPLANE_HAND, "8S", "9S", "10S"])
    mine = view(state, version=9, chain_head="h", perspective=Perspective(seat=0))
    assert mine.choice_forms == ("play",)
    rng = random.Random(2)
    total = sum(e.count if isinstance(e, Choice) else 1 for e in mine.legal_commands)
    reached = {msgspec.json.encode(pick(mine.legal_commands, rng)) for _ in range(40 * total)}
    assert len(reached) == total
    for encoded in reached:
        command = msgspec.json.decode(encoded)
        if command["type"] == "play":
            game.act(
                state,
                player_id=player(0),
                command=parse_command(DH.commands, command),
                now=NOW,
                version=9,
            )
