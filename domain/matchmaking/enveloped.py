"""Aggregates whose stored events are envelopes around a payload (its stream, place and time),
each envelope folding itself: the matchmaking queues and the rematches."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.domain import BaseAggregate


class EnvelopedAggregate(BaseAggregate[UUID]):
    ENVELOPE: ClassVar[type[Any]]  # built from (originator_id, originator_version, timestamp,
    # payload), with ``mutate(aggregate) -> aggregate``

    def record(self, payload: Any, now: datetime) -> None:
        """Append ``payload`` at the next version, folded at once."""
        event = self.ENVELOPE(
            originator_id=self.id,
            originator_version=self.version + 1,
            timestamp=now,
            payload=payload,
        )
        event.mutate(self)
        self.pending_events.append(event)
