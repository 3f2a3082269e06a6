"""The Double Heartbeat table state and how each event changes it (``evolve`` never draws)."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.cards import without
from domain.events import Event, HandDealt, PlayerLeft, TrickWon
from domain.turns import left_of, rotation
from domain.variant import ScoreRow
from domain.variants.double_heartbeat.combinations import Combination, Kind
from domain.variants.double_heartbeat.messages import (
    AllianceBroken,
    AllianceFormed,
    CardsBuried,
    CombinationPlayed,
    DoubleHeartbeatOptions,
    FirstDealerDrawn,
    HandSettled,
    LeadInherited,
    PlayerWentOut,
    TurnPassed,
)

DECK_SIZE = 104
Phase = Literal["waiting", "bury", "play", "over"]
LeadKind = Literal["opening", "won", "inherited"]


def surplus(seat_count: int) -> int:
    """The dealer's extra cards ``k`` (3p 2, 4p 0, 5p 4, 6p 2)."""
    return DECK_SIZE % seat_count


class TopPlay(msgspec.Struct, frozen=True):
    seat: int
    cards: tuple[str, ...]
    combination: Combination


class Action(msgspec.Struct, frozen=True):
    """One step of a trick: a play (cards and type) or a pass (no cards)."""

    seat: int
    cards: tuple[str, ...] = ()
    combination: Kind | None = None


class HandResult(msgspec.Struct, frozen=True, kw_only=True):
    hand: int
    dealer: int
    order: tuple[int, ...]
    last: int | None
    buried: tuple[str, ...]
    places: tuple[int, ...]
    bonuses: tuple[int, ...]


class DoubleHeartbeatTable(msgspec.Struct, frozen=True, kw_only=True):
    options: DoubleHeartbeatOptions
    seat_count: int
    hands: tuple[tuple[str, ...], ...]
    left: tuple[bool, ...]
    totals: tuple[int, ...]
    bonuses: tuple[int, ...]  # bomb bonuses of the hand in play
    allies: tuple[int | None, ...]
    first_dealer: int | None = None
    hand_number: int = 0
    dealer: int = 0
    phase: Phase = "waiting"
    turn: int | None = None
    leader: int | None = None
    lead_kind: LeadKind = "opening"
    top: TopPlay | None = None
    lead_on_top: bool = False  # the top play is the lead of this trick (nobody played over it)
    trick: tuple[Action, ...] = ()
    last_trick: tuple[Action, ...] = ()
    tricks: int = 0
    passed: tuple[int, ...] = ()  # seats that passed since the last play
    out: tuple[int, ...] = ()  # finishing order of the hand in play
    buried: tuple[str, ...] = ()
    discards: tuple[str, ...] = ()  # every card played in this hand
    results: tuple[HandResult, ...] = ()

    @property
    def hands_to_play(self) -> int:
        return self.options.hands or self.seat_count

    def active(self, seat: int) -> bool:
        """Still in the hand: at the table and holding cards."""
        return not self.left[seat] and bool(self.hands[seat])

    def active_seats(self) -> list[int]:
        return [seat for seat in range(self.seat_count) if self.active(seat)]

    def seated(self) -> list[int]:
        return [seat for seat in range(self.seat_count) if not self.left[seat]]

    def next_active(self, after: int) -> int | None:
        """The first active seat after ``after`` in turn order (``after`` itself last)."""
        order = rotation(left_of(after, self.seat_count), self.seat_count)
        return next((seat for seat in order if self.active(seat)), None)

    def alliance_open(self) -> bool:
        """The top play is a fresh lead of a trick winner who has no ally yet."""
        return (
            self.top is not None
            and self.lead_on_top
            and self.lead_kind == "won"
            and self.allies[self.top.seat] is None
        )

    def trick_complete(self) -> bool:
        """Every other player still holding cards has passed since the last play."""
        if self.top is None:
            return False
        owner = self.top.seat
        return all(seat in self.passed for seat in self.active_seats() if seat != owner)

    def alliances(self) -> tuple[tuple[int, int], ...]:
        return tuple(
            (seat, ally)
            for seat, ally in enumerate(self.allies)
            if ally is not None and seat < ally
        )

    def score_rows(self) -> list[ScoreRow]:
        rows = [
            ScoreRow(
                label=f"hand {result.hand}",
                points=tuple(p + b for p, b in zip(result.places, result.bonuses, strict=True)),
            )
            for result in self.results
        ]
        if self.phase in ("bury", "play"):
            rows.append(ScoreRow(label=f"hand {self.hand_number} (in play)", points=self.bonuses))
        return rows


def setup(options: DoubleHeartbeatOptions, seat_count: int) -> DoubleHeartbeatTable:
    zeros = (0,) * seat_count
    return DoubleHeartbeatTable(
        options=options,
        seat_count=seat_count,
        hands=((),) * seat_count,
        left=(False,) * seat_count,
        totals=zeros,
        bonuses=zeros,
        allies=(None,) * seat_count,
    )


def _set(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    return (*values[:seat], value, *values[seat + 1 :])


def _set_ally(
    allies: tuple[int | None, ...], seat: int, ally: int | None
) -> tuple[int | None, ...]:
    return (*allies[:seat], ally, *allies[seat + 1 :])


def _set_hand(
    hands: tuple[tuple[str, ...], ...], seat: int, hand: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


def evolve(table: DoubleHeartbeatTable, event: Event) -> DoubleHeartbeatTable:
    replace = msgspec.structs.replace
    match event:
        case FirstDealerDrawn():
            return replace(table, first_dealer=event.seat)
        case HandDealt():
            return _dealt(table, event)
        case CardsBuried():
            cards = event.cards.unwrap()
            hand = without(table.hands[event.seat], cards)
            return replace(
                table, hands=_set_hand(table.hands, event.seat, hand), buried=cards, phase="play"
            )
        case CombinationPlayed():
            return _played(table, event)
        case TurnPassed():
            return replace(
                table,
                passed=(*table.passed, event.seat),
                trick=(*table.trick, Action(seat=event.seat)),
                turn=table.next_active(event.seat),
            )
        case AllianceFormed():
            allies = _set_ally(table.allies, event.leader, event.copier)
            return replace(table, allies=_set_ally(allies, event.copier, event.leader))
        case AllianceBroken():
            allies = _set_ally(table.allies, event.by, None)
            return replace(table, allies=_set_ally(allies, event.ally, None))
        case PlayerWentOut():
            return replace(table, out=(*table.out, event.seat))
        case TrickWon():
            return replace(
                table,
                top=None,
                lead_on_top=False,
                last_trick=table.trick,
                trick=(),
                passed=(),
                tricks=table.tricks + 1,
                leader=event.seat,
                lead_kind="won",
                turn=event.seat,
            )
        case LeadInherited():
            return replace(table, leader=event.seat, lead_kind="inherited", turn=event.seat)
        case HandSettled():
            return _settled(table, event)
        case PlayerLeft():
            return _left(table, event.seat)
    return table


def _dealt(table: DoubleHeartbeatTable, event: HandDealt) -> DoubleHeartbeatTable:
    burying = table.options.dealer_exchange == "bury" and surplus(table.seat_count) > 0
    zeros = (0,) * table.seat_count
    return msgspec.structs.replace(
        table,
        hands=tuple(secret.unwrap() for secret in event.hands),
        hand_number=event.hand,
        dealer=event.dealer,
        phase="bury" if burying else "play",
        turn=event.dealer,
        leader=event.dealer,
        lead_kind="opening",
        top=None,
        lead_on_top=False,
        trick=(),
        last_trick=(),
        tricks=0,
        passed=(),
        out=(),
        allies=(None,) * table.seat_count,
        buried=(),
        discards=(),
        bonuses=zeros,
    )


def _played(table: DoubleHeartbeatTable, event: CombinationPlayed) -> DoubleHeartbeatTable:
    seat = event.seat
    combination = Combination(event.combination, len(event.cards), event.top)
    hands = _set_hand(table.hands, seat, without(table.hands[seat], event.cards))
    after = msgspec.structs.replace(
        table,
        hands=hands,
        top=TopPlay(seat=seat, cards=event.cards, combination=combination),
        lead_on_top=table.top is None,
        trick=(*table.trick, Action(seat=seat, cards=event.cards, combination=event.combination)),
        passed=(),
        discards=(*table.discards, *event.cards),
        bonuses=_set(table.bonuses, seat, table.bonuses[seat] + event.bonus),
        totals=_set(table.totals, seat, table.totals[seat] + event.bonus),
    )
    return msgspec.structs.replace(after, turn=after.next_active(seat))


def _settled(table: DoubleHeartbeatTable, event: HandSettled) -> DoubleHeartbeatTable:
    result = HandResult(
        hand=event.hand,
        dealer=table.dealer,
        order=event.order,
        last=event.last,
        buried=event.buried,
        places=event.points,
        bonuses=table.bonuses,
    )
    totals = tuple(t + p for t, p in zip(table.totals, event.points, strict=True))
    return msgspec.structs.replace(
        table,
        totals=totals,
        results=(*table.results, result),
        phase="over",
        turn=None,
        top=None,
        lead_on_top=False,
    )


def _left(table: DoubleHeartbeatTable, seat: int) -> DoubleHeartbeatTable:
    left = tuple(s == seat or gone for s, gone in enumerate(table.left))
    after = msgspec.structs.replace(table, left=left)
    if after.phase == "bury" and seat == after.dealer:
        after = msgspec.structs.replace(after, phase="play")
    if after.phase == "play" and after.turn == seat and after.top is not None:
        # A leader who leaves before leading keeps the turn until LeadInherited passes it on.
        after = msgspec.structs.replace(after, turn=after.next_active(seat))
    return after
