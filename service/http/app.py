"""The litestar application."""

from __future__ import annotations

import asyncio
import secrets
from concurrent.futures import ThreadPoolExecutor

from litestar import Litestar
from litestar.datastructures import ResponseHeader, State
from litestar.openapi import OpenAPIConfig

from service.application import Cardledger
from service.background.work import BackgroundWork
from service.http.limits import StreamSlots, rate_limits
from service.http.openapi import refine_openapi
from service.http.pages import PageController, static_files
from service.http.problems import EXCEPTION_HANDLERS
from service.http.routes import GameController, MetaController, PlayerController
from service.http.rules import RulesController
from service.settings import Settings

API_VERSION = "0.1.0"
INSTANCE_HEADER = "Cardledger-Instance"


def create_app(settings: Settings | None = None, ledger: Cardledger | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    ledger = ledger or Cardledger(settings)
    background = BackgroundWork(ledger)

    def start() -> None:
        # Blocking store calls run in these threads, sized with the connection pool. Set here,
        # on the running loop: uvicorn's worker processes import the app inside their loop.
        asyncio.get_running_loop().set_default_executor(
            ThreadPoolExecutor(max_workers=settings.threads, thread_name_prefix="store")
        )
        background.start()

    def stop() -> None:
        background.stop()
        ledger.close()

    app = Litestar(
        route_handlers=[
            PlayerController,
            GameController,
            MetaController,
            PageController,
            RulesController,
            static_files,
        ],
        exception_handlers=EXCEPTION_HANDLERS,
        request_max_body_size=settings.max_body_bytes,
        middleware=rate_limits(settings.limits),
        openapi_config=OpenAPIConfig(title="cardledger", version=API_VERSION),
        response_headers=[
            ResponseHeader(
                name=INSTANCE_HEADER,
                value=secrets.token_hex(4),
                description="Which server process answered (an opaque id per process)",
            )
        ],
        on_startup=[start],
        on_shutdown=[stop],
        state=State({"ledger": ledger, "streams": StreamSlots(settings.limits)}),
    )
    refine_openapi(app)
    return app
