"""The process's follower of the notification log: every game event, whoever wrote it, once.

Deadlines and live streams learn what happened from the events themselves, decoded once here:
nothing reloads a game per event it reads. The follower wakes on this process's writes and on
other processes' NOTIFY, and polls as well (SQLite has no NOTIFY; a wake-up can be lost).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Protocol

from eventsourcing.persistence import Notification

from domain.aggregate import Recorded
from service.live.changes import Changes
from service.store.event_store import Store

log = logging.getLogger("cardledger.follower")
BATCH = 500


class Consumer(Protocol):
    def wants(self, notification: Notification) -> bool:
        """Whether to decode this one for us (most events interest nobody: skip decoding)."""

    def observe(self, recorded: list[Recorded]) -> None:
        """The events of a batch this consumer wanted, in log order."""


class LogFollower:
    def __init__(
        self,
        store: Store,
        changes: Changes,
        consumers: Sequence[Consumer],
        *,
        start: Callable[[], int],
        poll: float = 0.2,
        gap: float = 0.02,
    ) -> None:
        self._store = store
        self._changes = changes
        self._consumers = consumers
        self._start = start
        self._poll = poll
        self._gap = gap
        self.position: int | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="log-follower", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._changes.notify()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def step(self) -> int:
        """Read what the log holds past our position and hand it on; returns how many."""
        if self.position is None:
            self.position = self._start()
        seen = 0
        while True:
            batch = self._store.game_notifications(self.position, BATCH)
            if not batch:
                return seen
            wanted: list[list[Recorded]] = [[] for _ in self._consumers]
            for notification in batch:
                interested = [c.wants(notification) for c in self._consumers]
                if any(interested):
                    event = self._store.decode(notification)
                    for into, wants in zip(wanted, interested, strict=True):
                        if wants:
                            into.append(event)
            for consumer, events in zip(self._consumers, wanted, strict=True):
                if events:
                    consumer.observe(events)
            self.position = batch[-1].id
            seen += len(batch)
            if len(batch) < BATCH:
                return seen

    def _run(self) -> None:
        count = self._changes.count
        while not self._stop.is_set():
            try:
                self.step()
            except Exception:
                log.exception("following the log failed; retrying")
                self._stop.wait(1.0)
            # Under load a write lands every millisecond: read in batches, not once per write.
            self._stop.wait(self._gap)
            count = self._changes.wait(count, self._poll)
