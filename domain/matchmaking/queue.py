"""The queue of one variant as an eventsourcing aggregate, and the decisions on it: join, leave,
and seat the tables that can be formed.

Its events are ``Queued`` envelopes around the payloads of ``domain.matchmaking.entries``. A
table is recorded here (``TableFormed``) and its game created in the same save, so the queue's
next version is the lock a table takes on its entries: of two processes forming tables from the
same entries, the store lets the first write through and refuses the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from uuid import UUID, uuid5

import msgspec

from domain.aggregate import forked
from domain.errors import Failure, RuleViolation, invalid
from domain.game import MAX_CLIENT_SEED, parse_options
from domain.matchmaking.entries import (
    EntryJoined,
    EntryLeft,
    QueueEvent,
    QueueState,
    TableFormed,
)
from domain.matchmaking.enveloped import EnvelopedAggregate
from domain.matchmaking.matching import Table
from domain.variants import variant_by_id

QUEUE_NAMESPACE = UUID("0c6f7d2e-5a41-4b8e-9f3d-2e8a61c4b7d9")
MAX_BOTS_AFTER = 24 * 3600.0  # seconds: a day is longer than anyone waits for a table

JOIN_REFUSALS: Mapping[str, Failure] = {
    "unknown_variant": Failure.INVALID,
    "invalid_seat_range": Failure.INVALID,
    "unknown_option": Failure.INVALID,
    "invalid_option": Failure.INVALID,
    "invalid_client_seed": Failure.INVALID,
    "invalid_rating_band": Failure.INVALID,
    "invalid_bot_wait": Failure.INVALID,
    "already_queued": Failure.CONFLICT,
    "queue_full": Failure.CONFLICT,
}
LEAVE_REFUSALS: Mapping[str, Failure] = {
    "unknown_variant": Failure.INVALID,
    "not_queued": Failure.NOT_FOUND,
}


def queue_id(variant_id: str) -> UUID:
    """The stream of a variant's queue: the same in every process, for ever."""
    return uuid5(QUEUE_NAMESPACE, f"queue:{variant_id}")


class JoinRequest(msgspec.Struct, frozen=True, kw_only=True):
    """What a player asks for, before it is checked: seat counts (None: any the variant has)
    and options (None: the defaults)."""

    player_id: str
    name: str
    min_seats: int | None = None
    max_seats: int | None = None
    options: dict[str, Any] | None = None
    rating: float
    rating_band: float | None = None
    bots_after: float | None = None
    bot_level: int | None = None
    client_seed: str = ""


def join(state: QueueState, request: JoinRequest, *, capacity: int) -> EntryJoined:
    """The entry to record, or a coded refusal; the queue holds at most ``capacity`` entries."""
    variant = variant_by_id(state.variant)
    low = variant.min_seats if request.min_seats is None else request.min_seats
    high = variant.max_seats if request.max_seats is None else request.max_seats
    if not variant.min_seats <= low <= high <= variant.max_seats:
        raise invalid(
            "invalid_seat_range",
            f"{variant.id} is for {variant.min_seats} to {variant.max_seats} players,"
            f" and the least comes first",
        )
    options = parse_options(variant, request.options)
    if len(request.client_seed) > MAX_CLIENT_SEED:
        raise invalid("invalid_client_seed", f"client_seed is longer than {MAX_CLIENT_SEED}")
    if request.rating_band is not None and not request.rating_band >= 0:
        raise invalid("invalid_rating_band", "a rating band is a gap of zero or more")
    if (request.bots_after is None) != (request.bot_level is None) or (
        request.bots_after is not None and not 0 <= request.bots_after <= MAX_BOTS_AFTER
    ):
        raise invalid(
            "invalid_bot_wait",
            f"bots come with a level and a wait of 0 to {MAX_BOTS_AFTER:.0f} seconds",
        )
    if request.player_id in state.waiting:
        raise RuleViolation("already_queued", f"you already wait for a table of {variant.id}")
    if len(state.waiting) >= capacity:
        raise RuleViolation("queue_full", f"the queue of {variant.id} is full; try again later")
    return EntryJoined(
        player_id=request.player_id,
        name=request.name,
        min_seats=low,
        max_seats=high,
        options=options,
        rating=request.rating,
        rating_band=request.rating_band,
        bots_after=request.bots_after,
        bot_level=request.bot_level,
        client_seed=request.client_seed,
    )


def leave(state: QueueState, player_id: str) -> EntryLeft:
    if player_id not in state.waiting:
        raise RuleViolation("not_queued", "you do not wait in this queue", Failure.NOT_FOUND)
    return EntryLeft(player_id=player_id)


def formed(table: Table, game_id: str) -> TableFormed:
    return TableFormed(
        game_id=game_id,
        player_ids=tuple(entry.player_id for entry in table.players),
        seat_count=table.seat_count,
        bots=table.bots,
        bot_level=table.bot_level,
    )


class Queued(msgspec.Struct, frozen=True, kw_only=True):
    """A stored queue event: the payload, its place in the stream and when it happened."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    payload: QueueEvent

    def mutate(self, aggregate: QueueAggregate | None) -> QueueAggregate:
        if aggregate is None:
            raise ValueError("a queue is opened before its events are folded")
        aggregate.state.apply(self.payload, at=self.timestamp, version=self.originator_version)
        aggregate.version = self.originator_version
        aggregate.modified_on = self.timestamp
        return aggregate


class QueueAggregate(EnvelopedAggregate):
    """One variant's queue. Opened empty at version 0 (no event creates it: its first join is
    its first event), so the first two joins racing conflict like any others."""

    ENVELOPE = Queued
    TOPIC = "cardledger:queue"
    state: QueueState

    @staticmethod
    def empty(variant_id: str, now: datetime) -> QueueAggregate:
        aggregate = QueueAggregate.__new__(QueueAggregate)
        aggregate.__base_init__(
            originator_id=queue_id(variant_id), originator_version=0, timestamp=now
        )
        aggregate.state = QueueState(variant=variant_id)
        return aggregate

    def fork(self) -> QueueAggregate:
        """A copy to decide on, sharing nothing that a decision changes."""
        clone = forked(self)
        clone.state = self.state.copy()
        return clone


def fold(aggregate: QueueAggregate, events: Any) -> QueueAggregate:
    """Projector for the queue's stored events onto an aggregate opened with ``empty``."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate
