"""Keeps the read models caught up in the background, one process at a time.

Every API process (inline mode) and every `cardledger project` may run a projector; only the
holder of the leader lock works, the others stand by and take over when it goes away.
Exactly-once does not depend on this: the position's compare-and-set guarantees it; the lock
only saves the others from folding every event for nothing.
"""

from __future__ import annotations

from service.read_models.models import ReadModels
from service.store.changes import Changes
from service.store.locks import LeaderLock
from service.worker import Worker

STANDBY_SECONDS = 1.0  # how often a standby asks for the lock


class ReadModelRunner:
    def __init__(
        self,
        read_models: ReadModels,
        changes: Changes,
        leader: LeaderLock,
        *,
        interval: float = 0.2,
        gap: float = 0.02,
    ) -> None:
        self.read_models = read_models
        self.leader = leader
        # Under load a write lands every millisecond: the gap folds batches, not one per write.
        self.worker = Worker(
            "read-models", self.step, idle=interval, gap=gap, finish=leader.release
        )
        changes.subscribe(self.worker.wake)

    def start(self) -> None:
        self.worker.start()

    def stop(self) -> None:
        self.worker.stop()

    def step(self) -> float | None:
        """Catch up if this process leads; else wait a while and ask again."""
        if not self.leader.try_acquire():
            return STANDBY_SECONDS
        self.read_models.catch_up()
        return None

    def run(self) -> None:
        """Run in the calling thread until interrupted (`cardledger project`)."""
        self.worker.start()
        try:
            while self.worker.health().alive:
                self.worker.pause(1.0)
        finally:
            self.worker.stop()
