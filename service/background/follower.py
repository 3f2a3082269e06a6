"""The process's followers of the notification log: every game event (or, for the matchmaking
timer, every queue event), whoever wrote it, once.

Deadlines and live streams learn what happened from the events themselves, decoded once here:
nothing reloads a game per event it reads. A follower wakes on this process's writes and on
other processes' NOTIFY, and polls as well (SQLite has no NOTIFY; a wake-up can be lost).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Protocol

from eventsourcing.persistence import Notification

from domain.aggregate import Recorded
from service.store.event_store import QUEUE_TOPICS, Store
from service.worker import Worker

BATCH = 500


class Consumer(Protocol):
    def wants(self, notification: Notification) -> bool:
        """Whether to decode this one for us (most events interest nobody: skip decoding)."""

    def observe(self, recorded: list[Recorded]) -> None:
        """The events of a batch this consumer wanted, in log order."""


class QueueConsumer(Protocol):
    def wants(self, notification: Notification) -> bool: ...

    def observe(self, queued: list[Any]) -> None:
        """The queue events of a batch (``Queued``), in log order."""


class LogFollower:
    def __init__(
        self,
        store: Store,
        consumers: Sequence[Consumer | QueueConsumer],
        *,
        start: Callable[[], int],
        poll: float = 0.2,
        gap: float = 0.02,
        queues: bool = False,
    ) -> None:
        """``queues``: follow the matchmaking queues' events instead of the games'."""
        self._sparse = queues
        self._store = store
        self._consumers: Sequence[Any] = consumers
        self._start = start
        self._read = (
            store.queue_notifications if queues else partial(store.game_notifications, reader=self)
        )
        self._decode: Callable[[Notification], Any] = (
            store.decode_queued if queues else store.decode
        )
        self.position: int | None = None
        # Under load a write lands every millisecond: read in batches, not once per write.
        # ``step`` is looked up at each run, so a caller may wrap it (the live benchmark does).
        name = "queue-follower" if queues else "log-follower"
        self.worker = Worker(name, lambda: self.step(), idle=poll, gap=gap)
        store.changes.subscribe(self.worker.wake, topics=QUEUE_TOPICS if queues else None)

    def start(self) -> None:
        self.worker.start()

    def stop(self) -> None:
        self.worker.stop()

    def step(self) -> None:
        """Read what the log holds past our position and hand it on."""
        if self.position is None:
            self.position = self._start()
        while True:
            horizon = self._store.writer.horizon() if self._sparse else 0
            batch = self._read(self.position, BATCH)
            if not batch:
                # Queue events are rare: without this, each read would scan every game event
                # written since the last one. Every id below the horizon had ended before the
                # read, which found none of ours among them.
                self.position = max(self.position, horizon - 1)
                return
            wanted: list[list[Any]] = [[] for _ in self._consumers]
            for notification in batch:
                interested = [c.wants(notification) for c in self._consumers]
                if any(interested):
                    event = self._decode(notification)
                    for into, wants in zip(wanted, interested, strict=True):
                        if wants:
                            into.append(event)
            for consumer, events in zip(self._consumers, wanted, strict=True):
                if events:
                    consumer.observe(events)
            self.position = batch[-1].id
            if len(batch) < BATCH:
                return
