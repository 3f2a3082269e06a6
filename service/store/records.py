"""Write-once records kept beside the games: players and command receipts (idempotency).

Each is an aggregate with exactly one event, so saving one in the same transaction as a game's
events makes both durable together, and creating the same id twice is a conflict.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar
from uuid import UUID, uuid5

import msgspec
from eventsourcing.domain import BaseAggregate

RECORD_NAMESPACE = UUID("6b1f1c2e-3f4e-4d8a-9a59-7b0c6f1d2e3a")


class RecordPayload(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    SCHEMA_VERSION: ClassVar[int] = 1


class PlayerRegistered(RecordPayload, frozen=True, tag="PlayerRegistered"):
    name: str
    token_hash: str


class CommandReceipt(RecordPayload, frozen=True, tag="CommandReceipt"):
    """What a request with an Idempotency-Key did, so a retry can answer the same."""

    request_digest: str
    game_id: str
    from_version: int
    to_version: int
    chain_head: str


class QueueReceipt(RecordPayload, frozen=True, tag="QueueReceipt"):
    """What a keyed join of a matchmaking queue answered, so a retry answers the same."""

    request_digest: str
    answer: dict[str, Any]


def record_topic(payload_type: type[RecordPayload]) -> str:
    return f"cardledger:{payload_type.__struct_config__.tag}:v{payload_type.SCHEMA_VERSION}"


class Registered(msgspec.Struct, frozen=True, kw_only=True):
    originator_id: UUID
    originator_version: int
    timestamp: datetime
    payload: RecordPayload

    def mutate(self, aggregate: Record | None) -> Record:
        record = Record.__new__(Record)
        record.__base_init__(
            originator_id=self.originator_id,
            originator_version=self.originator_version,
            timestamp=self.timestamp,
        )
        record.payload = self.payload
        return record


class Record(BaseAggregate[UUID]):
    TOPIC = "cardledger:record"
    payload: Any

    @staticmethod
    def new(record_id: UUID, payload: RecordPayload, now: datetime) -> Record:
        event = Registered(
            originator_id=record_id, originator_version=1, timestamp=now, payload=payload
        )
        record = event.mutate(None)
        record.pending_events.append(event)  # type: ignore[arg-type]
        return record


def player_id_for(token_hash: str) -> UUID:
    """A player's id follows from the hash of their token, so a token finds its player directly."""
    return uuid5(RECORD_NAMESPACE, f"player:{token_hash}")


def receipt_id_for(player_id: str, scope: str, key: str) -> UUID:
    return uuid5(RECORD_NAMESPACE, f"receipt:{player_id}:{scope}:{key}")


class TicketKey(RecordPayload, frozen=True, tag="TicketKey"):
    """The key that signs stream tickets, shared by every process through the store."""

    secret: str


TICKET_KEY_ID = uuid5(RECORD_NAMESPACE, "stream-ticket-key")

RECORD_TYPES: tuple[type[RecordPayload], ...] = (
    PlayerRegistered,
    CommandReceipt,
    TicketKey,
    QueueReceipt,
)
