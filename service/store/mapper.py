"""Our wire format: game events, queue and rematch events and records as msgspec JSON under
their payload's topic."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import Mapper, StoredEvent

from domain.aggregate import Recorded
from domain.events import Secret, topic
from domain.matchmaking.entries import QUEUE_EVENTS, QueueEvent, queue_topic
from domain.matchmaking.queue import Queued
from domain.matchmaking.rematch import REMATCH_EVENTS, Rematched, RematchEvent, rematch_topic
from domain.variants import event_types
from service.store.records import RECORD_TYPES, RecordPayload, Registered, record_topic


class _GameWire(msgspec.Struct, frozen=True, omit_defaults=True):
    timestamp: datetime
    actor: str
    command_id: str
    command: Secret[Any] | None
    prev_hash: str
    hash: str
    payload: msgspec.Raw
    expiry: datetime | None = None  # only on an expiry's events, absent from older ones


class _RecordWire(msgspec.Struct, frozen=True):
    timestamp: datetime
    payload: msgspec.Raw


Enveloped = Registered | Queued | Rematched  # the same envelope: a payload, its place and time
ENVELOPES_BY_TOPIC: dict[str, tuple[type[Enveloped], type[msgspec.Struct]]] = {
    **{record_topic(t): (Registered, t) for t in RECORD_TYPES},
    **{queue_topic(t): (Queued, t) for t in QUEUE_EVENTS},
    **{rematch_topic(t): (Rematched, t) for t in REMATCH_EVENTS},
}


def _enveloped_topic(payload: RecordPayload | QueueEvent | RematchEvent) -> str:
    if isinstance(payload, RecordPayload):
        return record_topic(type(payload))
    if isinstance(payload, QueueEvent):
        return queue_topic(type(payload))
    return rematch_topic(type(payload))


@cache
def _decoder(payload_type: type[Any]) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(payload_type)


class EnvelopeMapper(Mapper[UUID]):
    """Stores a game event's envelope as JSON under its payload's topic; records likewise."""

    def __init__(self) -> None:
        self._encoder = msgspec.json.Encoder()

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if isinstance(domain_event, Recorded):
            wire: msgspec.Struct = _GameWire(
                timestamp=domain_event.timestamp,
                actor=domain_event.actor,
                command_id=domain_event.command_id,
                command=domain_event.command,
                prev_hash=domain_event.prev_hash,
                hash=domain_event.hash,
                payload=msgspec.Raw(self._encoder.encode(domain_event.payload)),
                expiry=domain_event.expiry,
            )
            stored_topic = topic(type(domain_event.payload))
        elif isinstance(domain_event, Enveloped):
            wire = _RecordWire(
                timestamp=domain_event.timestamp,
                payload=msgspec.Raw(self._encoder.encode(domain_event.payload)),
            )
            stored_topic = _enveloped_topic(domain_event.payload)
        else:
            raise TypeError(f"cannot store {type(domain_event).__name__}")
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=stored_topic,
            state=self._encoder.encode(wire),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        originator_id = stored_event.originator_id
        if not isinstance(originator_id, UUID):
            originator_id = UUID(str(originator_id))
        game_type = event_types().get(stored_event.topic)
        if game_type is not None:
            wire = _decoder(_GameWire).decode(stored_event.state)
            return Recorded(
                originator_id=originator_id,
                originator_version=stored_event.originator_version,
                timestamp=wire.timestamp,
                actor=wire.actor,
                command_id=wire.command_id,
                command=wire.command,
                payload=_decoder(game_type).decode(wire.payload),
                prev_hash=wire.prev_hash,
                hash=wire.hash,
                expiry=wire.expiry,
            )
        record = _decoder(_RecordWire).decode(stored_event.state)
        envelope, payload_type = ENVELOPES_BY_TOPIC[stored_event.topic]
        return envelope(
            originator_id=originator_id,
            originator_version=stored_event.originator_version,
            timestamp=record.timestamp,
            payload=_decoder(payload_type).decode(record.payload),
        )
