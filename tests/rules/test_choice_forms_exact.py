"""Choice forms are exact (issue 21), checked both ways by brute force on realistic hands.

For each kind of command that comes as a form (a Cancellation Hearts pass, a Double Heartbeat
bury, an airplane with pairs) the game itself is the oracle: every set of cards of the sizes that
kind could take, drawn from the hand and a few cards it does not hold, is sent, and the commands
it takes must be exactly those offered, in ``legal_commands`` or in a form's expansion; and every
command offered is taken. Airplanes compare up to the suits of equal ranks, which the rules never
look at (judgement call double-heartbeat/one-representative); the pass and the bury exactly.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from domain import game_state
from domain.choices import commands_of, split
from domain.commands import Command
from domain.errors import RuleViolation
from domain.game_state import GameState
from domain.variants.cancellation_hearts.messages import PassCards
from domain.variants.double_heartbeat.combinations import read
from domain.variants.double_heartbeat.messages import BuryCards, PlayCombination
from tests.rules.scenario import when
from tests.rules.test_legal_commands import dealt_dh, passing

Key = tuple[Any, ...]


def tried(pool: Iterable[str], sizes: Iterable[int]) -> set[tuple[str, ...]]:
    """Every distinct set of cards of these sizes from ``pool`` (a card in it twice may be
    taken twice)."""
    cards = sorted(pool)
    return {chosen for size in sizes for chosen in itertools.combinations(cards, size)}


def taken(state: GameState, seat: int, command: Command) -> bool:
    try:
        when(state, seat, command)
    except RuleViolation:
        return False
    return True


def offered(state: GameState, seat: int) -> list[Command]:
    """Everything the seat is offered: listed commands and every command of its forms."""
    listed = split(state.rules.legal_moves(state.table, seat))
    return [*listed.commands, *(command for form in listed.forms for command in commands_of(form))]


def exactly(cards: Iterable[str]) -> Key:
    return tuple(sorted(cards))


def up_to_suits(cards: Iterable[str]) -> Key:
    return tuple(sorted(Counter(card[:-1] for card in cards).items()))


def check_exact(
    state: GameState,
    seat: int,
    make: Callable[[tuple[str, ...]], Command],
    candidates: set[tuple[str, ...]],
    key: Callable[[Iterable[str]], Key] = exactly,
) -> set[Key]:
    """Among commands ``make`` builds, offered == taken on ``candidates`` (compared by ``key``),
    and every one offered is taken; the keys taken."""
    mine = [c for c in offered(state, seat) if c == make(cards_of(c))]
    for command in mine:
        assert taken(state, seat, command), f"offered but refused: {command}"
    accepted = {key(cards) for cards in candidates if taken(state, seat, make(cards))}
    assert {key(cards_of(command)) for command in mine} == accepted
    return accepted


def cards_of(command: Command) -> tuple[str, ...]:
    return tuple(getattr(command, "cards", ()))


# --- Cancellation Hearts: the pass ---------------------------------------------------------------

NOT_HELD = ("5C", "JD")


@pytest.mark.parametrize(
    ("hand", "seats"),
    [
        (("QS", "QS", "2S", "3H", "7H", "AH", "4D", "KD", "6C"), 11),  # 9 cards, a card twice
        (("2S", "9S", "QS", "3H", "3H", "7H", "JH", "AH", "8D", "KD", "6C", "10C", "AC"), 8),
    ],
)
def test_the_passes_taken_are_exactly_those_offered(hand: tuple[str, ...], seats: int) -> None:
    state = passing(hand, seats)
    accepted = check_exact(
        state, 0, lambda cards: PassCards(cards=cards), tried((*hand, *NOT_HELD), range(2, 5))
    )
    assert accepted and all(len(cards) == 3 for cards in accepted)
    assert PassCards(cards=hand[:3]) in state.rules.legal_commands(state.table, 0)


# --- Double Heartbeat: the bury ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "most"),
    [
        (["3S 3S 4H 7D 9C 9C JH KS AD 2C 2C 5H", "5S", "6S"], 2),  # 3 players: bury 0..2
        (["4S 4S 4H 8D 10C QH QH AS 2D", "5S", "6S", "7S", "8S"], 4),  # 5 players: bury 0..4
    ],
)
def test_the_buries_taken_are_exactly_those_offered(hands: list[str], most: int) -> None:
    state = dealt_dh(hands)
    hand = hands[0].split()
    accepted = check_exact(
        state,
        0,
        lambda cards: BuryCards(cards=list(cards)),
        tried((*hand, *NOT_HELD), range(most + 2)),
    )
    assert {len(cards) for cards in accepted} == set(range(most + 1))
    listed = [c for c in state.rules.legal_commands(state.table, 0) if isinstance(c, BuryCards)]
    lowest = state.rules.hand(state.table, 0)  # in the singles order, lowest first
    assert [c.cards for c in listed] == [list(lowest[:size]) for size in range(most + 1)]


# --- Double Heartbeat: airplanes with pairs ------------------------------------------------------

# Chains 3-4, 4-5 and 3-4-5; wings from a pair of sixes, two pairs of sevens and what a chain
# leaves of the other ranks.
AIRPLANES = "3S 3H 3D 4S 4H 4D 5S 5H 5D 6S 6H 7S 7S 7H 7D"


def airplane(cards: tuple[str, ...]) -> PlayCombination:
    return PlayCombination(cards=list(cards), combination="airplane_pairs")


def test_the_airplanes_taken_are_exactly_those_offered_on_the_lead() -> None:
    state = dealt_dh([AIRPLANES, "8S", "9S", "10S"])  # 4 players: no bury
    hand = AIRPLANES.split()
    accepted = check_exact(state, 0, airplane, tried([*hand, "9C"], (10, 15)), up_to_suits)
    assert len(accepted) > 3  # several chains, several wings each
    # Every chain (count and top) has a command listed as it is: 3-4, 4-5 and 3-4-5.
    listed = [c for c in state.rules.legal_commands(state.table, 0) if c == airplane(cards_of(c))]
    chains = {(read(c.cards).count, read(c.cards).top) for c in listed}  # type: ignore[attr-defined]
    assert len(listed) == len(chains) == 3


def test_the_airplanes_taken_over_a_top_are_exactly_those_offered() -> None:
    lead = "3C 3C 3S 4C 4C 4S 9H 9H 10H 10H"
    state = dealt_dh([lead, AIRPLANES.replace("3S 3H 3D", "KS KH KD"), "2S", "2H"])
    state = game_state.fold(state, when(state, 0, airplane(tuple(lead.split()))))
    assert state.rules.to_act(state.table) == (1,)
    accepted = check_exact(state, 1, airplane, tried(state.table.hands[1], (10,)), up_to_suits)
    # Only the chain 4-5 beats 3-4, its wings two of KK, 66, 77, 77.
    assert len(accepted) == 4
