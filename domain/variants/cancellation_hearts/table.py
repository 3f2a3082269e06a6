"""The Cancellation Hearts table state and how each event changes it (``evolve`` never draws)."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.cards import without
from domain.events import CardPlayed, Event, HandDealt, PlayerLeft
from domain.turns import Play, left_of
from domain.variant import ScoreRow
from domain.variants.cancellation_hearts.messages import (
    CancellationHeartsOptions,
    CardsPassed,
    MoonShot,
    PassesDelivered,
    PenaltiesScored,
    TrickResolved,
)
from domain.variants.cancellation_hearts.tricks import breaks_hearts, sort_hand

_replace = msgspec.structs.replace
Phase = Literal["waiting", "passing", "playing", "moon", "scored", "over"]


class TrickSummary(msgspec.Struct, frozen=True, kw_only=True):
    """A resolved trick as every seat saw it."""

    trick: int
    leader: int
    plays: tuple[Play, ...]
    cancelled: tuple[str, ...]
    winner: int | None
    points: int


class SentPass(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's pass as delivered: to whom, and which cards (seen by the passer only)."""

    to: int
    cards: tuple[str, ...]


class CancellationHeartsTable(msgspec.Struct, frozen=True, kw_only=True):
    options: CancellationHeartsOptions
    seat_count: int
    left: tuple[bool, ...]
    totals: tuple[int, ...]
    rows: tuple[ScoreRow, ...] = ()
    phase: Phase = "waiting"
    hand_number: int = 0
    dealer: int = 0
    hands: tuple[tuple[str, ...], ...] = ()
    passes: tuple[tuple[str, ...] | None, ...] = ()  # committed, not yet delivered
    received: tuple[tuple[str, ...], ...] = ()
    sent: tuple[SentPass | None, ...] = ()  # delivered, by passer (None: took no part)
    kitty: tuple[str, ...] = ()  # not yet taken
    kitty_taker: int | None = None
    kitty_taken: tuple[str, ...] = ()
    leader: int = 0
    plays: tuple[Play, ...] = ()
    tricks: int = 0  # resolved this hand
    carry: tuple[str, ...] = ()
    broken: bool = False
    trick_points: tuple[int, ...] = ()  # from tricks only: public
    last_trick: TrickSummary | None = None
    hand_tricks: tuple[TrickSummary, ...] = ()  # every trick resolved this hand: public
    moon_seat: int | None = None

    def at_table(self, seat: int) -> bool:
        return not self.left[seat]

    def seated(self) -> tuple[int, ...]:
        return tuple(seat for seat in range(self.seat_count) if not self.left[seat])

    def eligible(self, seat: int) -> bool:
        """Still at the table with a card to play."""
        return not self.left[seat] and bool(self.hands[seat])

    def current_leader(self) -> int | None:
        return self._first_from(self.leader, ())

    def awaited(self) -> int | None:
        """Whose card the trick waits for (playing phase only): the first seat in turn order from
        the trick's leader that is at the table, holds a card and has not played to it."""
        if self.phase != "playing":
            return None
        if not self.plays:
            return self._first_from(self.leader, ())
        return self._first_from(self.plays[0].seat, tuple(play.seat for play in self.plays))

    def _first_from(self, start: int, played: tuple[int, ...]) -> int | None:
        # The same walk as domain.turns.first_eligible, inlined: it runs several times per card.
        count = self.seat_count
        for step in range(count):
            seat = (start + step) % count
            if self.hands[seat] and not self.left[seat] and seat not in played:
                return seat
        return None

    def out_of_cards(self) -> bool:
        """Nobody still at the table holds a card: the hand's play is over."""
        return not any(self.hands[seat] for seat in range(self.seat_count) if not self.left[seat])


Table = CancellationHeartsTable


def setup(options: CancellationHeartsOptions, seat_count: int) -> Table:
    return CancellationHeartsTable(
        options=options,
        seat_count=seat_count,
        left=(False,) * seat_count,
        totals=(0,) * seat_count,
    )


def evolve(table: Table, event: Event) -> Table:
    match event:
        case CardPlayed():
            return _played(table, event)
        case TrickResolved():
            return _trick_resolved(table, event)
        case CardsPassed():
            return _passed(table, event)
        case PassesDelivered():
            received = tuple(secret.unwrap() for secret in event.received)
            dealt = tuple(
                sort_hand(hand + got) if got else hand
                for hand, got in zip(table.hands, received, strict=True)
            )
            return _replace(
                table,
                hands=dealt,
                received=received,
                sent=_sent(event.senders, received),
                passes=(None,) * table.seat_count,
                phase="playing",
            )
        case HandDealt():
            return _dealt(table, event)
        case MoonShot():
            return _replace(table, phase="moon", moon_seat=event.seat)
        case PenaltiesScored():
            row = ScoreRow(label=f"hand {event.hand}", points=event.points)
            over = max(event.totals) >= table.options.target
            return _replace(
                table,
                totals=event.totals,
                rows=(*table.rows, row),
                phase="over" if over else "scored",
                moon_seat=None,
            )
        case PlayerLeft():
            return _player_left(table, event.seat)
    return table


def _dealt(table: Table, event: HandDealt) -> Table:
    count = table.seat_count
    return _replace(
        table,
        phase="passing",
        hand_number=event.hand,
        dealer=event.dealer,
        hands=tuple(secret.unwrap() for secret in event.hands),
        passes=(None,) * count,
        received=((),) * count,
        sent=(),
        kitty=event.rest.unwrap(),
        kitty_taker=None,
        kitty_taken=(),
        leader=left_of(event.dealer, count),
        plays=(),
        tricks=0,
        carry=(),
        broken=False,
        trick_points=(0,) * count,
        last_trick=None,
        hand_tricks=(),
        moon_seat=None,
    )


def _sent(
    senders: tuple[int | None, ...], received: tuple[tuple[str, ...], ...]
) -> tuple[SentPass | None, ...]:
    """Each passer's pass, found from its receiver's side of the delivery."""
    sent: list[SentPass | None] = [None] * len(senders)
    for receiver, sender in enumerate(senders):
        if sender is not None:
            sent[sender] = SentPass(to=receiver, cards=received[receiver])
    return tuple(sent)


def _passed(table: Table, event: CardsPassed) -> Table:
    hands = list(table.hands)
    passes = list(table.passes)
    cards = event.cards.unwrap()
    hands[event.seat] = without(hands[event.seat], cards)
    passes[event.seat] = cards
    return _replace(table, hands=tuple(hands), passes=tuple(passes))


def _played(table: Table, event: CardPlayed) -> Table:
    hands = list(table.hands)
    hands[event.seat] = without(hands[event.seat], (event.card,))
    return _replace(
        table,
        hands=tuple(hands),
        plays=(*table.plays, Play(seat=event.seat, card=event.card)),
        broken=table.broken or breaks_hearts(event.card),
    )


def _trick_resolved(table: Table, event: TrickResolved) -> Table:
    summary = TrickSummary(
        trick=event.trick,
        leader=event.leader,
        plays=table.plays,
        cancelled=event.cancelled,
        winner=event.winner,
        points=event.points,
    )
    if event.winner is None:
        return _replace(
            table,
            plays=(),
            tricks=event.trick,
            carry=event.carried,
            leader=event.leader,
            last_trick=summary,
            hand_tricks=(*table.hand_tricks, summary),
        )
    trick_points = list(table.trick_points)
    trick_points[event.winner] += event.points
    changes: dict[str, object] = {}
    if event.kitty is not None:
        changes = {
            "kitty": (),
            "kitty_taker": event.winner,
            "kitty_taken": event.kitty.unwrap(),
        }
    return _replace(
        table,
        plays=(),
        tricks=event.trick,
        carry=(),
        leader=event.winner,
        trick_points=tuple(trick_points),
        last_trick=summary,
        hand_tricks=(*table.hand_tricks, summary),
        **changes,
    )


def _player_left(table: Table, seat: int) -> Table:
    left = list(table.left)
    left[seat] = True
    table = _replace(table, left=tuple(left))
    pending = table.passes[seat] if table.phase == "passing" else None
    if pending is None:
        return table
    hands = list(table.hands)
    hands[seat] = sort_hand(hands[seat] + pending)
    passes = list(table.passes)
    passes[seat] = None
    return _replace(table, hands=tuple(hands), passes=tuple(passes))
