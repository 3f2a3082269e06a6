"""What every seat sees of a Double Heartbeat table (the dealer also sees the buried cards)."""

from __future__ import annotations

import msgspec

from domain.perspective import hidden
from domain.variants.double_heartbeat.combinations import Kind
from domain.variants.double_heartbeat.messages import DoubleHeartbeatOptions
from domain.variants.double_heartbeat.table import (
    Action,
    DoubleHeartbeatTable,
    HandResult,
    LeadKind,
    Phase,
)


class TopView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    cards: tuple[str, ...]
    combination: Kind
    count: int
    rank: str
    bomb: bool


class DoubleHeartbeatView(msgspec.Struct, frozen=True, kw_only=True):
    options: DoubleHeartbeatOptions
    hand_number: int
    hands_to_play: int
    first_dealer: int | None
    dealer: int
    phase: Phase
    leader: int | None
    lead_kind: LeadKind
    top: TopView | None
    alliance_open: bool
    trick: tuple[Action, ...]
    last_trick: tuple[Action, ...]
    passed: tuple[int, ...]
    finished: tuple[int, ...]
    allies: tuple[int | None, ...]
    alliances: tuple[tuple[int, int], ...]
    buried_count: int
    buried: tuple[str, ...] | None  # the dealer's own buried cards; None for everyone else
    discards: tuple[str, ...]
    results: tuple[HandResult, ...]


def table_view(table: DoubleHeartbeatTable) -> DoubleHeartbeatView:
    top = table.top
    return DoubleHeartbeatView(
        options=table.options,
        hand_number=table.hand_number,
        hands_to_play=table.hands_to_play,
        first_dealer=table.first_dealer,
        dealer=table.dealer,
        phase=table.phase,
        leader=table.leader,
        lead_kind=table.lead_kind,
        top=None
        if top is None
        else TopView(
            seat=top.seat,
            cards=top.cards,
            combination=top.combination.kind,
            count=top.combination.count,
            rank=top.combination.rank,
            bomb=top.combination.is_bomb,
        ),
        alliance_open=table.alliance_open(),
        trick=table.trick,
        last_trick=table.last_trick,
        passed=table.passed,
        finished=table.out,
        allies=table.allies,
        alliances=table.alliances(),
        buried_count=len(table.buried),
        buried=hidden(table.dealer, table.buried),
        discards=table.discards,
        results=table.results,
    )
