"""The matchmaking queues this process holds in memory, one per variant, brought up to date with
one query for the events after the copy's version (a queue stream only grows)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime

from domain.matchmaking.queue import QueueAggregate, fold, queue_id
from service.store.event_store import Store


class Queues:
    def __init__(self, store: Store, clock: Callable[[], datetime]) -> None:
        self._store = store
        self._clock = clock
        self._copies: dict[str, QueueAggregate] = {}
        self._lock = threading.Lock()

    def current(self, variant_id: str) -> QueueAggregate:
        """The variant's queue as stored now, to read only: it is this process's copy."""
        with self._lock:
            known = self._copies.get(variant_id)
        if known is None:
            known = QueueAggregate.empty(variant_id, self._clock())
        newer = list(self._store.events.get(queue_id(variant_id), gt=known.version))
        if not newer:
            return known
        current = fold(known.fork(), newer)
        self.remember(current)
        return current

    def fresh(self, variant_id: str) -> QueueAggregate:
        """The variant's queue as stored now, as a copy to decide on."""
        return self.current(variant_id).fork()

    def remember(self, queue: QueueAggregate) -> None:
        """Keep the newest copy; the caller changes the one given no more."""
        with self._lock:
            known = self._copies.get(queue.state.variant)
            if known is None or known.version < queue.version:
                self._copies[queue.state.variant] = queue
