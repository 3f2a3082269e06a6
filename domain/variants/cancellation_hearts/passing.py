"""Passing in Cancellation Hearts (RULES.md §4): three cards each, face down, delivered at once.

Hand 1 passes left, hand 2 right, and so on, among the seats still at the table (judgement
calls ``cancellation-hearts/pass-among-seated`` and ``leaver-pass-returns`` in rules.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.cards import check_card_code, holds
from domain.choices import Choice, choice
from domain.commands import Command
from domain.errors import RuleViolation, invalid
from domain.events import Event
from domain.variant import Turn
from domain.variants.cancellation_hearts.messages import (
    CardsPassed,
    PassCards,
    PassDirection,
    PassesDelivered,
)
from domain.variants.cancellation_hearts.table import CancellationHeartsTable, evolve

PASS_SIZE = 3


def pass_direction(hand: int) -> PassDirection:
    """Hand 1 passes left, hand 2 right, and so on."""
    return "left" if hand % 2 == 1 else "right"


def pass_targets(left: Sequence[bool], direction: PassDirection) -> tuple[int | None, ...]:
    """``targets[s]``: the seat that receives seat s's pass (None for a seat that left)."""
    count = len(left)
    step = 1 if direction == "left" else -1
    targets: list[int | None] = []
    for seat in range(count):
        target = None
        if not left[seat]:
            target = next(
                (seat + step * k) % count
                for k in range(1, count + 1)
                if not left[(seat + step * k) % count]
            )
        targets.append(target)
    return tuple(targets)


def decide_pass(
    table: CancellationHeartsTable, seat: int, command: PassCards, turn: Turn
) -> list[Event]:
    if table.phase != "passing":
        raise RuleViolation("not_passing", "cards are passed only before the first trick")
    if table.passes[seat] is not None:
        raise RuleViolation("already_passed", "you have already passed your cards")
    if len(command.cards) != PASS_SIZE:
        raise invalid("wrong_pass_size", f"pass exactly {PASS_SIZE} cards")
    for card in command.cards:
        check_card_code(card)
    if not holds(table.hands[seat], command.cards):
        raise RuleViolation(
            "card_not_in_hand", "you do not hold every card of that pass (count duplicates)"
        )
    passed = CardsPassed(
        hand=table.hand_number, seat=seat, cards=turn.seal(seat, tuple(command.cards))
    )
    return [passed, *deliver_if_ready(evolve(table, passed), turn)]


def deliver_if_ready(table: CancellationHeartsTable, turn: Turn) -> list[Event]:
    """Every pass delivered at once, when every seat still at the table has passed."""
    seated = table.seated()
    if any(table.passes[seat] is None for seat in seated):
        return []
    direction = pass_direction(table.hand_number)
    targets = pass_targets(table.left, direction)
    senders: list[int | None] = [None] * table.seat_count
    for passer, target in enumerate(targets):
        if target is not None:
            senders[target] = passer
    received = []
    for seat, sender in enumerate(senders):
        cards = table.passes[sender] if sender is not None else None
        received.append(turn.seal(seat, cards or ()))
    delivered = PassesDelivered(
        hand=table.hand_number,
        direction=direction,
        senders=tuple(senders),
        received=tuple(received),
    )
    return [delivered]


def legal_passes(table: CancellationHeartsTable, seat: int) -> list[Command | Choice]:
    """Every pass of three of the seat's cards, as one choice form (none once it has passed)."""
    if table.passes[seat] is not None:
        return []
    hand = [(card,) for card in table.hands[seat]]
    return [choice(PassCards(cards=()), hand, least=PASS_SIZE, most=PASS_SIZE)]
