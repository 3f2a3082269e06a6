"""What runs beside the API in each process, and how it is wired to the log."""

from __future__ import annotations

from collections.abc import Callable

from service.application import Cardledger
from service.background.deadlines import DeadlineWatcher
from service.background.follower import LogFollower
from service.background.projector import LeaderLock, ReadModelRunner
from service.live.listener import PostgresListener


class BackgroundWork:
    """The log follower (feeding the deadline watcher and the live feeds from the events it
    reads), the deadline watcher, the inline projector (one process at a time) and, on
    PostgreSQL, the LISTEN connection that wakes them when another process writes."""

    def __init__(self, ledger: Cardledger) -> None:
        settings = ledger.settings
        self.read_models = ledger.read_models
        self.watcher = DeadlineWatcher(ledger)

        def start_position() -> int:
            position, deadlines = ledger.read_models.running_deadlines()
            self.watcher.known(deadlines)
            return position

        self.follower = LogFollower(
            ledger.store,
            ledger.changes,
            [self.watcher, ledger.feeds],
            start=start_position,
        )
        self.projector = (
            ReadModelRunner(ledger.read_models, ledger.changes, LeaderLock(settings, "projector"))
            if settings.projector == "inline"
            else None
        )
        channel = ledger.store.channel
        self.listener = (
            PostgresListener(settings.database_url, channel, ledger.changes)
            if settings.database_url and channel
            else None
        )

    def log_readers(self) -> dict[str, Callable[[], int | None]]:
        """Where each reader of the log stands: the read models at the position stored with
        them, whichever process projects; this process's follower (None until it starts)."""
        return {
            "read_models": self.read_models.position,
            "log_follower": lambda: self.follower.position,
        }

    def start(self) -> None:
        if self.listener is not None:
            self.listener.start()
        self.follower.start()
        self.watcher.start()
        if self.projector is not None:
            self.projector.start()

    def stop(self) -> None:
        if self.projector is not None:
            self.projector.stop()
        self.watcher.stop()
        self.follower.stop()
        if self.listener is not None:
            self.listener.stop()
