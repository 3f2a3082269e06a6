"""The application: the store and the read models, and the use cases over them, composed.

Handlers and tools take the part they need: ``commands`` (writes to games), ``queries``
(reads), ``matchmaking`` (the quick-match queues), ``rematches`` (rematches of ended
games), ``ratings`` (players' ratings and their exports), ``messages`` (what each player hears
about their games), ``webhooks`` (the same, POSTed to where a player asks), ``players``
(registration and tokens), ``tickets`` (stream tickets and the key every process shares), ``log``
(the witnessed log of games: its sequencer and what is served of it).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from service.application.commands import GameCommands
from service.application.log import WitnessedLog
from service.application.matchmaking import Matchmaking
from service.application.messaging.messages import PlayerMessages
from service.application.messaging.webhooks import Webhooks
from service.application.players import Players
from service.application.queries import GameQueries, RenderedViews
from service.application.ratings import RatingQueries
from service.application.rematches import Rematches
from service.application.standby import Side, StandbyReads
from service.application.telemetry import Telemetry
from service.application.tickets import TicketBook
from service.read_models.models import ReadModels
from service.read_models.tables import Tables
from service.settings import Settings
from service.store.event_store import Store
from service.store.games import Games
from service.store.unit_of_work import UnitOfWork


def now_utc() -> datetime:
    return datetime.now(UTC)


class Cardledger:
    def __init__(self, settings: Settings, clock: Callable[[], datetime] = now_utc) -> None:
        self.settings = settings
        self.clock = clock
        self.telemetry = Telemetry()
        self.store = Store(env=settings.store_env())
        self.store.report_to(self.telemetry)
        self.games = Games(self.store, settings.cached_games)
        self.read_models = ReadModels(self.store, capacity=settings.cached_games)
        self.writes = UnitOfWork(self.store, self.games, self.telemetry, clock)
        views = RenderedViews()
        self.commands = GameCommands(self.writes, self.telemetry, clock, views)
        self.queries = GameQueries(
            self.store,
            self.games,
            self.read_models,
            clock,
            wait_for_read_models=settings.projector == "inline",
            standby=self._standby(settings),
            views=views,
        )
        self.ratings = RatingQueries(self.store, self.read_models, self.queries.read_your_writes)
        self.messages = PlayerMessages(self.read_models, self.queries.read_your_writes)
        self.webhooks = Webhooks(
            self.read_models.tables.webhooks,
            self.read_models,
            settings,
            clock,
            self.telemetry.registry,
            self.queries.read_your_writes,
        )
        self.matchmaking = Matchmaking(
            self.store,
            self.games,
            self.queries,
            clock,
            capacity=settings.queue_capacity,
            max_active_games=settings.max_active_games,
            ratings=self.ratings,
            troubles=self.telemetry,
        )
        self.rematches = Rematches(
            self.store,
            self.games,
            self.queries,
            clock,
            max_active_games=settings.max_active_games,
            troubles=self.telemetry,
        )
        self.players = Players(self.store, clock, settings.admin_token)
        self.tickets = TicketBook(self.store, self.games, clock)
        self.log = WitnessedLog(self.store, settings, clock)

    def _standby(self, settings: Settings) -> tuple[StandbyReads, Tables] | None:
        """The standby reads may come from (CARDLEDGER_READ_URL), if one is set."""
        env = settings.read_env()
        if env is None:
            self.standby_store: Store | None = None
            return None
        store = self.standby_store = Store(env=env)
        reads = StandbyReads(
            Side(self.games, self.store),
            Side(Games(store, settings.cached_games), store),
            self.telemetry.registry,
        )
        return reads, Tables(store, create=False)

    def close(self) -> None:
        if self.standby_store is not None:
            self.standby_store.close()
        self.store.close()
