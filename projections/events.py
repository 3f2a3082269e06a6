"""Events as served: each redacted for the perspective that asks."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec

from domain.aggregate import Recorded
from domain.events import Event, Secret, tag_of
from domain.perspective import Perspective, redact


class EventOut(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """An event as served. ``expiry`` is present only on the events an expiry made (absent, as
    in the hash, everywhere else); ``type`` repeats ``payload.type`` and is not hashed."""

    version: int
    timestamp: datetime
    actor: str
    command_id: str
    command: Secret[Any] | None  # the seat's command, on the first event of its batch
    type: str
    payload: Event
    prev_hash: str
    hash: str
    expiry: datetime | None = None


def event_out(recorded: Recorded, perspective: Perspective) -> EventOut:
    return EventOut(
        version=recorded.originator_version,
        timestamp=recorded.timestamp,
        actor=recorded.actor,
        command_id=recorded.command_id,
        command=redact(recorded.command, perspective),
        type=tag_of(recorded.payload),
        payload=redact(recorded.payload, perspective),
        prev_hash=recorded.prev_hash,
        hash=recorded.hash,
        expiry=recorded.expiry,
    )
