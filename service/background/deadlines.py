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
from datetime import datetime, timedelta
from uuid import UUID

from eventsourcing.persistence import Notification

from domain.aggregate import Recorded
from domain.events import Event, GameCancelled, GameFinished, topic
from domain.variants import DEADLINE_EVENTS, deadline_started
from service.application import Cardledger
from service.errors import ApiError

log = logging.getLogger("cardledger.timers")
RETRY = timedelta(seconds=1)  # after a failed expiry (the store was away)
LONGEST_NAP = 1.0  # seconds: the clock is re-read at least this often
ENDINGS: frozenset[type[Event]] = frozenset({GameFinished, GameCancelled})
WATCHED = frozenset(topic(kind) for kind in DEADLINE_EVENTS | ENDINGS)


class DeadlineWatcher:
    def __init__(self, ledger: Cardledger) -> None:
        self.ledger = ledger
        self.deadlines: dict[UUID, datetime] = {}
        self._changed = threading.Condition()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="deadline-watcher", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        with self._changed:
            self._stop = True
            self._changed.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def known(self, deadlines: dict[UUID, datetime]) -> None:
        """Deadlines already running when the follower starts (from the read models)."""
        with self._changed:
            self.deadlines.update(deadlines)
            self._changed.notify_all()

    def wants(self, notification: Notification) -> bool:
        return notification.topic in WATCHED

    def observe(self, recorded: list[Recorded]) -> None:
        """A batch of events from the log: note the deadlines they start and the games that end."""
        with self._changed:
            for event in recorded:
                deadline = deadline_started(event.payload)
                if deadline is not None:
                    self.deadlines[event.originator_id] = deadline
                elif isinstance(event.payload, GameFinished | GameCancelled):
                    self.deadlines.pop(event.originator_id, None)
            self._changed.notify_all()

    def step(self) -> int:
        """Expire every game whose deadline has passed; returns how many were looked at."""
        now = self.ledger.clock()
        with self._changed:
            due = [(g, d) for g, d in self.deadlines.items() if d <= now]
            for game_id, _ in due:
                del self.deadlines[game_id]
        for game_id, _ in due:
            try:
                self.ledger.expire(game_id)
            except ApiError as error:
                log.warning("could not expire game %s: %s", game_id, error.detail)
            except Exception:
                log.exception("could not expire game %s; trying again", game_id)
                with self._changed:
                    self.deadlines.setdefault(game_id, self.ledger.clock() + RETRY)
        return len(due)

    def _nap(self) -> float:
        """Seconds until the next deadline (at most LONGEST_NAP)."""
        if not self.deadlines:
            return LONGEST_NAP
        soonest = min(self.deadlines.values())
        return max(0.0, min(LONGEST_NAP, (soonest - self.ledger.clock()).total_seconds()))

    def _run(self) -> None:
        while True:
            with self._changed:
                if self._stop:
                    return
                self._changed.wait(self._nap())
                if self._stop:
                    return
            self.step()
