"""The High Card table state and how each event changes it."""

from __future__ import annotations

import msgspec

from domain.cards import without
from domain.events import CardPlayed, Event, HandDealt, PlayerLeft, TrickWon
from domain.turns import Play, next_in_trick
from tests.conformance.tiny_variant.messages import HighCardOptions


class HighCardTable(msgspec.Struct, frozen=True, kw_only=True):
    options: HighCardOptions
    seat_count: int
    hands: tuple[tuple[str, ...], ...]
    left: tuple[bool, ...]
    plays: tuple[Play, ...] = ()
    winner: int | None = None
    dealt: bool = False

    def awaited(self) -> int | None:
        """Whose card the one trick waits for: seat 0 leads, the others follow in turn."""
        if not self.dealt or self.winner is not None:
            return None
        return next_in_trick(0, self.plays, self.seat_count, lambda seat: not self.left[seat])


def setup(options: HighCardOptions, seat_count: int) -> HighCardTable:
    return HighCardTable(
        options=options,
        seat_count=seat_count,
        hands=((),) * seat_count,
        left=(False,) * seat_count,
    )


def evolve(table: HighCardTable, event: Event) -> HighCardTable:
    replace = msgspec.structs.replace
    match event:
        case HandDealt():
            return replace(table, hands=tuple(s.unwrap() for s in event.hands), dealt=True)
        case CardPlayed():
            hands = list(table.hands)
            hands[event.seat] = without(hands[event.seat], [event.card])
            play = Play(seat=event.seat, card=event.card)
            return replace(table, hands=tuple(hands), plays=(*table.plays, play))
        case TrickWon():
            return replace(table, winner=event.seat)
        case PlayerLeft():
            left = tuple(seat == event.seat or gone for seat, gone in enumerate(table.left))
            return replace(table, left=left)
    return table
