"""The litestar application."""

from __future__ import annotations

from litestar import Litestar
from litestar.datastructures import State
from litestar.openapi import OpenAPIConfig

from service.application import Cardledger
from service.background.deadlines import DeadlineWatcher
from service.background.read_models import ReadModelRunner
from service.http.openapi import refine_openapi
from service.http.pages import PageController, static_files
from service.http.problems import EXCEPTION_HANDLERS
from service.http.routes import GameController, MetaController, PlayerController
from service.live.wakeups import PostgresListener
from service.settings import Settings

API_VERSION = "0.1.0"


def create_app(settings: Settings | None = None, ledger: Cardledger | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    ledger = ledger or Cardledger(settings)
    watcher = DeadlineWatcher(ledger)
    projector = ReadModelRunner(ledger.read_models) if settings.projector == "inline" else None
    listener = (
        PostgresListener(settings.database_url, ledger.store.recorder.channel_name, ledger.changes)  # type: ignore[attr-defined]
        if settings.database_url
        else None
    )

    def start() -> None:
        watcher.start()
        if projector is not None:
            projector.start()
        if listener is not None:
            listener.start()

    def stop() -> None:
        if projector is not None:
            projector.stop()
        if listener is not None:
            listener.stop()
        watcher.stop()
        ledger.close()

    app = Litestar(
        route_handlers=[
            PlayerController,
            GameController,
            MetaController,
            PageController,
            static_files,
        ],
        exception_handlers=EXCEPTION_HANDLERS,
        request_max_body_size=settings.max_body_bytes,
        openapi_config=OpenAPIConfig(title="cardledger", version=API_VERSION),
        on_startup=[start],
        on_shutdown=[stop],
        state=State({"ledger": ledger}),
    )
    refine_openapi(app)
    return app
