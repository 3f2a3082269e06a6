"""The Open Hand table state and how each event changes it."""

from __future__ import annotations

import msgspec

from domain.cards import without
from domain.events import CardPlayed, Event, HandDealt, PlayerLeft, TrickWon
from domain.kept import kept
from domain.turns import Play, TrickRecord, first_eligible, next_in_trick
from domain.variants.open_hand.messages import FirstLeaderChosen, OpenHandOptions


class OpenHandTable(msgspec.Struct, frozen=True, kw_only=True, dict=True):
    """``dict``: room for ``awaited``, worked out once per table (a decision and a view each ask
    it several times)."""

    options: OpenHandOptions
    seat_count: int
    hands: tuple[tuple[str, ...], ...]
    left: tuple[bool, ...]
    points: tuple[int, ...]
    leader: int = 0
    plays: tuple[Play, ...] = ()
    tricks: tuple[TrickRecord, ...] = ()
    draws: tuple[str, ...] = ()
    dealt: bool = False

    def eligible(self, seat: int) -> bool:
        """Still at the table with a card to play."""
        return not self.left[seat] and bool(self.hands[seat])

    def current_leader(self) -> int | None:
        return first_eligible(self.leader, self.seat_count, self.eligible)

    @kept
    def awaited(self) -> int | None:
        if not self.dealt:
            return None
        if not self.plays:
            return self.current_leader()
        return next_in_trick(self.plays[0].seat, self.plays, self.seat_count, self.eligible)


def setup(options: OpenHandOptions, seat_count: int) -> OpenHandTable:
    return OpenHandTable(
        options=options,
        seat_count=seat_count,
        hands=((),) * seat_count,
        left=(False,) * seat_count,
        points=(0,) * seat_count,
    )


def evolve(table: OpenHandTable, event: Event) -> OpenHandTable:
    replace = msgspec.structs.replace
    match event:
        case HandDealt():
            dealt = tuple(secret.unwrap() for secret in event.hands)
            return replace(table, hands=dealt, dealt=True)
        case FirstLeaderChosen():
            return replace(table, leader=event.seat, draws=event.draws)
        case CardPlayed():
            remaining = list(table.hands)
            remaining[event.seat] = without(remaining[event.seat], [event.card])
            play = Play(seat=event.seat, card=event.card)
            return replace(table, hands=tuple(remaining), plays=(*table.plays, play))
        case TrickWon():
            record = TrickRecord(
                number=event.trick,
                leader=table.plays[0].seat,
                plays=table.plays,
                winner=event.seat,
            )
            points = list(table.points)
            points[event.seat] += event.points
            return replace(
                table,
                plays=(),
                tricks=(*table.tricks, record),
                points=tuple(points),
                leader=event.seat,
            )
        case PlayerLeft():
            left = list(table.left)
            left[event.seat] = True
            return replace(table, left=tuple(left))
    return table
