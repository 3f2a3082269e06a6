"""Applies due deadlines as server events, in the background of every API process.

The watcher follows the notification log, so it also sees games changed by other processes. When
several processes race to apply the same expiry, optimistic concurrency lets exactly one write;
the others re-decide on the new state, find nothing due and write nothing.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime
from uuid import UUID

from domain.events import GameCancelled, GameFinished, topic
from service.application import Cardledger
from service.errors import ApiError
from service.store.events import GAME_EVENT_TYPES

log = logging.getLogger("cardledger.timers")
BATCH = 1000
FINAL_TOPICS = frozenset({topic(GameFinished), topic(GameCancelled)})


class DeadlineWatcher:
    def __init__(self, ledger: Cardledger, *, interval: float = 0.1) -> None:
        self.ledger = ledger
        self.interval = interval
        self.position: int | None = None  # None until started from the read models
        self.deadlines: dict[UUID, datetime] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="deadline-watcher", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.step()
            except Exception:
                log.exception("deadline watcher step failed; retrying")
            self._stop.wait(self.interval)

    def step(self) -> int:
        """Catch up with the log, then expire what is due. Returns how many games were expired."""
        self._catch_up()
        now = self.ledger.clock()
        due = [game_id for game_id, deadline in self.deadlines.items() if deadline <= now]
        for game_id in due:
            try:
                self.ledger.expire(game_id)
            except ApiError as error:
                log.warning("could not expire game %s: %s", game_id, error.detail)
            self._refresh(game_id)
        return len(due)

    def _start(self) -> int:
        """Begin where the read models stand, with the games they list as running, rather
        than reading the whole history; whatever came after is followed from the log."""
        read_models = self.ledger.read_models
        position = read_models.position()
        for game_id in read_models.game_ids(status="active"):
            self._refresh(game_id)
        return position

    def _catch_up(self) -> None:
        if self.position is None:
            self.position = self._start()
        recorder = self.ledger.store.recorder
        touched: dict[UUID, bool] = {}
        while True:
            batch = recorder.select_notifications(
                self.position, BATCH, topics=tuple(GAME_EVENT_TYPES), inclusive_of_start=False
            )
            for notification in batch:
                game_id = UUID(str(notification.originator_id))
                touched[game_id] = notification.topic in FINAL_TOPICS
                self.position = notification.id
            if len(batch) < BATCH:
                break
        for game_id, over in touched.items():
            if over:
                self.deadlines.pop(game_id, None)
            else:
                self._refresh(game_id)

    def _refresh(self, game_id: UUID) -> None:
        deadline = self.ledger.deadline(game_id)
        if deadline is None:
            self.deadlines.pop(game_id, None)
        else:
            self.deadlines[game_id] = deadline
