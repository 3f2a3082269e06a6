"""Applies due deadlines as server events, in the background of every API process.

The watcher learns deadlines from the events that set them, as the log follower reads them
(whichever process wrote them), starting from the deadlines the read models list. A deadline
that nobody needs any more (everyone chose in time) costs one look at the game when it falls
due. When several processes race to apply one expiry, optimistic concurrency lets exactly one
write; the others decide again on the new state, find nothing due and write nothing.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from uuid import UUID

from eventsourcing.persistence import Notification

from domain.aggregate import Recorded
from domain.events import GameCancelled, GameFinished, topic
from domain.variants import deadline_started, deadline_topics
from service.errors import ApiError
from service.worker import Worker, nap_until

log = logging.getLogger("cardledger.timers")
RETRY = timedelta(seconds=1)  # after a failed expiry (the store was away)
LONGEST_NAP = 1.0  # seconds: the clock is re-read at least this often
ENDINGS = frozenset(topic(kind) for kind in (GameFinished, GameCancelled))


class DeadlineWatcher:
    def __init__(self, expire: Callable[[UUID], int], clock: Callable[[], datetime]) -> None:
        self._expire = expire
        self._clock = clock
        self.deadlines: dict[UUID, datetime] = {}
        self._lock = threading.Lock()
        self.worker = Worker("deadline-watcher", self._run_due, idle=LONGEST_NAP)

    def start(self) -> None:
        self.worker.start()

    def stop(self) -> None:
        self.worker.stop()

    def known(self, deadlines: dict[UUID, datetime]) -> None:
        """Deadlines already running when the follower starts (from the read models)."""
        with self._lock:
            self.deadlines.update(deadlines)
        self.worker.wake()

    def wants(self, notification: Notification) -> bool:
        return notification.topic in ENDINGS or notification.topic in deadline_topics()

    def observe(self, recorded: list[Recorded]) -> None:
        """A batch of events from the log: note the deadlines they start and the games that end."""
        with self._lock:
            for event in recorded:
                deadline = deadline_started(event.payload)
                if deadline is not None:
                    self.deadlines[event.originator_id] = deadline
                elif isinstance(event.payload, GameFinished | GameCancelled):
                    self.deadlines.pop(event.originator_id, None)
        self.worker.wake()

    def step(self) -> int:
        """Expire every game whose deadline has passed; returns how many were looked at."""
        now = self._clock()
        with self._lock:
            due = [game_id for game_id, deadline in self.deadlines.items() if deadline <= now]
            for game_id in due:
                del self.deadlines[game_id]
        for game_id in due:
            try:
                self._expire(game_id)
            except ApiError as error:
                log.warning("could not expire game %s: %s", game_id, error.detail)
            except Exception:
                log.exception("could not expire game %s; trying again", game_id)
                with self._lock:
                    self.deadlines.setdefault(game_id, self._clock() + RETRY)
        return len(due)

    def _run_due(self) -> float:
        """A run of the worker: the due expiries, then the seconds until the next deadline."""
        self.step()
        with self._lock:
            soonest = min(self.deadlines.values(), default=None)
        return nap_until(soonest, self._clock(), longest=LONGEST_NAP)
