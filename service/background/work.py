"""What runs beside the API in each process, and how it is wired to the log."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from service.application import Cardledger
from service.background.bot_fill import BotFillTimer
from service.background.bots import BotDriver
from service.background.deadlines import DeadlineWatcher
from service.background.follower import Consumer, LogFollower
from service.background.projector import ReadModelRunner
from service.background.sequencer import sequencer_runner
from service.background.webhooks import WebhookDeliverer, webhook_runner
from service.background.witnessing import witnessing_runner
from service.store.locks import LeaderLock
from service.worker import Worker, WorkerHealth


class BackgroundWork:
    """The log follower (feeding the deadline watcher, the bot driver and any other
    ``consumers``, such as the live feeds, from the events it reads), the deadline watcher, the
    bot driver, the queue follower feeding the matchmaking bot-fill timer, the inline projector,
    the witnessed log's sequencer, its witnesses' cosigning and the webhooks' deliverer (each one
    process at a time), on
    PostgreSQL the LISTEN connection that wakes them when another process writes, and any
    ``others`` (the live players' newsroom)."""

    def __init__(
        self,
        ledger: Cardledger,
        consumers: Sequence[Consumer] = (),
        others: Sequence[Worker] = (),
    ) -> None:
        settings = ledger.settings
        self.ledger = ledger
        self._others = list(others)
        self.read_models = ledger.read_models
        self.watcher = DeadlineWatcher(ledger.commands.expire, ledger.clock)
        self.bots = BotDriver(ledger.games, ledger.commands.play_bot, ledger.clock)

        def start_position() -> int:
            running = ledger.read_models.running()
            self.watcher.known(running.deadlines)
            self.bots.known(running.bot_games)
            return running.position

        self.follower = LogFollower(
            ledger.store, [self.watcher, self.bots, *consumers], start=start_position
        )
        self.bot_fill = BotFillTimer(ledger.matchmaking.fill, ledger.clock)

        def queue_start() -> int:
            # Every event below the horizon has ended: those are in the queues loaded next,
            # the ones past it the follower reads (noting an entry twice changes nothing).
            position = ledger.store.writer.horizon() - 1
            self.bot_fill.known(ledger.matchmaking.waiting())
            return position

        self.queue_follower = LogFollower(
            ledger.store, [self.bot_fill], start=queue_start, queues=True
        )
        self.projector = (
            ReadModelRunner(
                ledger.read_models, ledger.store.changes, LeaderLock(settings, "projector")
            )
            if settings.projector == "inline"
            else None
        )
        self.sequencer = sequencer_runner(
            ledger.log.sequencer, ledger.store.changes, LeaderLock(settings, "sequencer")
        )
        self.witnessing = (
            witnessing_runner(
                ledger.log.witnessing, ledger.store.changes, LeaderLock(settings, "witnessing")
            )
            if ledger.log.witnessing.witnesses
            else None
        )
        self.deliverer = WebhookDeliverer(ledger.webhooks, ledger.read_models, ledger.clock)
        self.webhooks = webhook_runner(
            self.deliverer, ledger.read_models.messages_written, LeaderLock(settings, "webhooks")
        )
        self.listener = (
            ledger.store.listener(settings.database_url) if settings.database_url else None
        )

    @property
    def workers(self) -> list[Worker]:
        """In the order they start (the listener first: it wakes the others)."""
        runners = [
            self.listener,
            self.follower,
            self.watcher,
            self.bots,
            self.queue_follower,
            self.bot_fill,
            self.projector,
            self.sequencer,
            self.witnessing,
            self.webhooks,
        ]
        return [runner.worker for runner in runners if runner is not None] + self._others

    def health(self) -> list[WorkerHealth]:
        return [worker.health() for worker in self.workers]

    def log_readers(self) -> dict[str, Callable[[], int | None]]:
        """Where each reader of the log stands: the read models at the position stored with
        them, whichever process projects; this process's follower (None until it starts); the
        witnessed log at its sequenced position, whichever process sequences."""
        return {
            "read_models": self.read_models.position,
            "log_follower": lambda: self.follower.position,
            "witnessed_log": lambda: self.ledger.log.tables.sequenced().position,
        }

    def start(self) -> None:
        for worker in self.workers:
            worker.start()

    def stop(self) -> None:
        for worker in reversed(self.workers):
            worker.stop()
        self.deliverer.close()
