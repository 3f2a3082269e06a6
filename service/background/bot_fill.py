"""Gives waiting players bots once their chosen wait has passed, in the background of every API
process.

The timer learns each entry's moment from the queue events themselves, as the queue follower
reads them (whichever process wrote them), starting from the queues as stored when it starts;
it never reloads a queue per event. When a moment comes it asks the application to form the
tables the queue then allows: the queue is loaded once (a query for the events after the
process's copy), and when several processes do this together the store's version check on the
queue lets exactly one write a table; the others decide again on the new queue and find the
entry gone.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from uuid import UUID

from eventsourcing.persistence import Notification

from domain.matchmaking.entries import EntryJoined, EntryLeft, QueueState, TableFormed
from domain.matchmaking.queue import Queued, queue_id
from domain.variants import VARIANTS
from service.worker import Worker, nap_until

log = logging.getLogger("cardledger.matchmaking")
RETRY = timedelta(seconds=1)  # after a failed fill (the store was away)
LONGEST_NAP = 1.0  # seconds: the clock is re-read at least this often
VARIANT_OF_QUEUE: dict[UUID, str] = {queue_id(variant): variant for variant in VARIANTS}


class BotFillTimer:
    def __init__(self, fill: Callable[[str], int], clock: Callable[[], datetime]) -> None:
        self._fill = fill
        self._clock = clock
        self.due: dict[tuple[str, str], datetime] = {}  # (variant, player) -> when bots may sit
        self._lock = threading.Lock()
        self.worker = Worker("bot-fill", self._run_due, idle=LONGEST_NAP)

    def start(self) -> None:
        self.worker.start()

    def stop(self) -> None:
        self.worker.stop()

    def known(self, queues: Iterable[QueueState]) -> None:
        """The entries waiting for bots when the follower starts (from the queues as stored)."""
        with self._lock:
            for state in queues:
                for entry in state.waiting.values():
                    due = entry.bots_due
                    if due is not None:
                        self.due[(state.variant, entry.player_id)] = due
        self.worker.wake()

    def wants(self, notification: Notification) -> bool:
        return notification.originator_id in VARIANT_OF_QUEUE

    def observe(self, queued: list[Queued]) -> None:
        """A batch of queue events from the log: note the waits they start and end."""
        with self._lock:
            for event in queued:
                variant = VARIANT_OF_QUEUE[event.originator_id]
                payload = event.payload
                if isinstance(payload, EntryJoined) and payload.bots_after is not None:
                    due = event.timestamp + timedelta(seconds=payload.bots_after)
                    self.due[(variant, payload.player_id)] = due
                elif isinstance(payload, EntryLeft):
                    self.due.pop((variant, payload.player_id), None)
                elif isinstance(payload, TableFormed):
                    for player_id in payload.player_ids:
                        self.due.pop((variant, player_id), None)
        self.worker.wake()

    def step(self) -> int:
        """Fill the queues with an entry due; returns how many queues were looked at."""
        now = self._clock()
        with self._lock:
            due = {variant for (variant, _), when in self.due.items() if when <= now}
            for key in [key for key, when in self.due.items() if when <= now]:
                del self.due[key]  # filled now, or gone already: the log says which
        for variant in sorted(due):
            try:
                self._fill(variant)
            except Exception:
                log.exception("could not seat bots in the queue of %s; trying again", variant)
                with self._lock:  # under no player's name: the variant's queue is looked at again
                    self.due.setdefault((variant, ""), self._clock() + RETRY)
        return len(due)

    def _run_due(self) -> float:
        """A run of the worker: the due fills, then the seconds until the next one."""
        self.step()
        with self._lock:
            soonest = min(self.due.values(), default=None)
        return nap_until(soonest, self._clock(), longest=LONGEST_NAP)
