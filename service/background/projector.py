"""Keeps the read models caught up in the background, one process at a time.

Every API process (inline mode) and every `cardledger project` may run a projector; only the
holder of the leader lock works, the others stand by and take over when it goes away.
Exactly-once does not depend on this: the position's compare-and-set guarantees it; the lock
only saves the others from folding every event for nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from service.read_models.models import ReadModels
from service.store.locks import LeaderLock
from service.store.readers.changes import Changes
from service.worker import Worker

STANDBY_SECONDS = 1.0  # how often a standby asks for the lock


class LeaderRunner:
    """Runs ``catch_up`` on a worker of its own while this process holds ``leader``; woken by
    every write. ``catch_up`` returns the seconds it may sleep, or None (until woken, or
    ``interval``)."""

    def __init__(
        self,
        name: str,
        catch_up: Callable[[], float | None],
        changes: Changes,
        leader: LeaderLock,
        *,
        interval: float = 0.2,
        gap: float = 0.02,
        topics: Collection[str] | None = None,
    ) -> None:
        """``topics``: woken only by writes that may hold events of these (all, if None)."""
        self.leader = leader
        self._catch_up = catch_up
        # Under load a write lands every millisecond: the gap folds batches, not one per write.
        self.worker = Worker(name, self.step, idle=interval, gap=gap, finish=leader.release)
        changes.subscribe(self.worker.wake, topics=topics)

    def start(self) -> None:
        self.worker.start()

    def stop(self) -> None:
        self.worker.stop()

    def step(self) -> float | None:
        """Catch up if this process leads; else wait a while and ask again."""
        if not self.leader.try_acquire():
            return STANDBY_SECONDS
        return self._catch_up()

    def run(self) -> None:
        """Run in the calling thread until interrupted (`cardledger project`)."""
        self.worker.start()
        try:
            while self.worker.health().alive:
                self.worker.pause(1.0)
        finally:
            self.worker.stop()


class ReadModelRunner(LeaderRunner):
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

        def catch_up() -> None:
            read_models.catch_up()

        super().__init__("read-models", catch_up, changes, leader, interval=interval, gap=gap)
