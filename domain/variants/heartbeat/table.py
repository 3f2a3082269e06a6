"""Heartbeat's table state, card values and round scoring (RULES.md §1).

Round n is ``len(rounds) + 1``; it begins when the previous one is scored (round 1 with the
deal) and, if the tempo deck is in use, with the flip of its top card.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TypeVar

import msgspec

from domain.cards import JOKERS, rank
from domain.events import Event, HandDealt, PlayerLeft
from domain.turns import Play
from domain.variants.heartbeat.messages import (
    CardChosen,
    CardShown,
    ChoicesRevealed,
    ChoiceTimedOut,
    HeartbeatOptions,
    RoundScored,
    Tempo,
    TempoCardFlipped,
    TempoDeckShuffled,
)

T = TypeVar("T")

HAND_SIZE = 5
ROUNDS = 3
FACE_VALUES = {"A": 1, "J": 10, "Q": 10, "K": 10}


def card_value(card: str) -> int:
    """A=1, 2-10 face value, J/Q/K=10, a joker 0 (RULES.md §1, resolved)."""
    if card in JOKERS:
        return 0
    face = rank(card)
    return FACE_VALUES[face] if face in FACE_VALUES else int(face)


def public_rank(card: str) -> str:
    """What a rank-only reveal shows: the rank, or "joker" (which joker is the hidden part)."""
    return "joker" if card in JOKERS else rank(card)


def by_value(card: str) -> tuple[int, str]:
    return card_value(card), card


def round_result(
    plays: Sequence[Play], tempo: Tempo | None, options: HeartbeatOptions, seat_count: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The winners of a round and the chips per seat (seats without a play get nothing)."""
    if not plays:
        return (), (0,) * seat_count
    values = [card_value(play.card) for play in plays]
    best = min(values) if tempo == "reverse" else max(values)
    winners = tuple(sorted(play.seat for play in plays if card_value(play.card) == best))
    prize = 2 if tempo == "double" else 1
    consolation = 1 if tempo == "double" and options.double_rule == "others_one" else 0
    chips = [0] * seat_count
    for play in plays:
        chips[play.seat] = prize if play.seat in winners else consolation
    return winners, tuple(chips)


class RoundRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A finished round as every player saw it."""

    round: int
    tempo: Tempo | None
    plays: tuple[Play, ...]
    winners: tuple[int, ...]
    chips: tuple[int, ...]


class Shown(msgspec.Struct, frozen=True, kw_only=True):
    """A card revealed in a Reveal round (``card`` is the real card: the table is never served)."""

    round: int
    seat: int
    rank: str
    card: str


def _put(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    changed = list(values)
    changed[index] = value
    return tuple(changed)


class HeartbeatTable(msgspec.Struct, frozen=True, kw_only=True):
    options: HeartbeatOptions
    seat_count: int
    hands: tuple[tuple[str, ...], ...]
    left: tuple[bool, ...]
    chips: tuple[int, ...]
    dealt: bool = False
    tempo_deck: tuple[Tempo, ...] = ()  # face down, top first
    tempo: Tempo | None = None  # this round's flipped card
    deadline: datetime | None = None  # Pressure: choices are refused from this moment on
    shown: tuple[str | None, ...] = ()  # this round's revealed card per seat
    chosen: tuple[str | None, ...] = ()  # this round's (secret) choice per seat
    reveals: tuple[Shown, ...] = ()  # every reveal so far
    revealed: tuple[Play, ...] = ()  # this round's choices once shown
    rounds: tuple[RoundRecord, ...] = ()

    @property
    def round(self) -> int:
        return min(len(self.rounds) + 1, ROUNDS)

    @property
    def over(self) -> bool:
        return self.dealt and len(self.rounds) == ROUNDS

    def present(self) -> list[int]:
        return [seat for seat in range(self.seat_count) if not self.left[seat]]

    @property
    def revealing(self) -> bool:
        """A Reveal round before every seat at the table has shown its card."""
        return self.tempo == "reveal" and any(self.shown[seat] is None for seat in self.present())

    def awaited(self) -> tuple[int, ...]:
        if not self.dealt or self.over:
            return ()
        if self.revealing:
            return tuple(seat for seat in self.present() if self.shown[seat] is None)
        return tuple(seat for seat in self.present() if self.chosen[seat] is None)

    def playable(self, seat: int) -> tuple[str, ...]:
        """The cards the seat may choose now: its hand but the card it revealed this round."""
        return tuple(card for card in self.hands[seat] if card != self.shown[seat])

    def running_deadline(self) -> datetime | None:
        return self.deadline if self.awaited() and not self.revealing else None


def setup(options: HeartbeatOptions, seat_count: int) -> HeartbeatTable:
    return HeartbeatTable(
        options=options,
        seat_count=seat_count,
        hands=((),) * seat_count,
        left=(False,) * seat_count,
        chips=(0,) * seat_count,
    )


def _take(table: HeartbeatTable, seat: int, card: str) -> HeartbeatTable:
    hands = list(table.hands)
    hands[seat] = tuple(held for held in hands[seat] if held != card)
    chosen: tuple[str | None, ...] = _put(table.chosen, seat, card)
    return msgspec.structs.replace(table, hands=tuple(hands), chosen=chosen)


def evolve(table: HeartbeatTable, event: Event) -> HeartbeatTable:
    replace = msgspec.structs.replace
    blank = (None,) * table.seat_count
    match event:
        case HandDealt():
            hands = tuple(secret.unwrap() for secret in event.hands)
            return replace(table, hands=hands, dealt=True, shown=blank, chosen=blank)
        case TempoDeckShuffled():
            return replace(table, tempo_deck=event.cards.unwrap())
        case TempoCardFlipped():
            return replace(
                table, tempo_deck=table.tempo_deck[1:], tempo=event.tempo, deadline=event.deadline
            )
        case CardShown():
            card = event.card if event.sealed is None else event.sealed.unwrap()
            if card is None:
                raise ValueError("a reveal carries its card, public or sealed")
            shown = Shown(round=event.round, seat=event.seat, rank=event.rank, card=card)
            shown_now: tuple[str | None, ...] = _put(table.shown, event.seat, card)
            return replace(
                table,
                shown=shown_now,
                reveals=(*table.reveals, shown),
            )
        case CardChosen():
            return _take(table, event.seat, event.card.unwrap())
        case ChoiceTimedOut():
            for seat, secret in zip(event.seats, event.cards, strict=True):
                table = _take(table, seat, secret.unwrap())
            return table
        case ChoicesRevealed():
            return replace(table, revealed=event.plays)
        case RoundScored():
            return _scored(table, event)
        case PlayerLeft():
            return replace(table, left=_put(table.left, event.seat, True))
    return table


def _scored(table: HeartbeatTable, event: RoundScored) -> HeartbeatTable:
    record = RoundRecord(
        round=event.round,
        tempo=event.tempo,
        plays=table.revealed,
        winners=event.winners,
        chips=event.chips,
    )
    blank = (None,) * table.seat_count
    return msgspec.structs.replace(
        table,
        chips=tuple(total + won for total, won in zip(table.chips, event.chips, strict=True)),
        rounds=(*table.rounds, record),
        tempo=None,
        deadline=None,
        shown=blank,
        chosen=blank,
        revealed=(),
    )
