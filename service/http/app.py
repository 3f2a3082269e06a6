"""The litestar application: where the process is put together (the application, its
background work and live feeds, the routes and what they are given)."""

from __future__ import annotations

import asyncio
import secrets

from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.datastructures import ResponseHeader, State
from litestar.openapi import OpenAPIConfig

from service.application import Cardledger
from service.application.messaging.webhooks import WebhookTotals
from service.application.telemetry import LogLag, WorkerCollector
from service.background.work import BackgroundWork
from service.http.allowance import Allowance
from service.http.authentication import TokenAuthentication
from service.http.dependencies import dependencies
from service.http.envelope import enveloped
from service.http.limits import StreamSlots, rate_rules
from service.http.metrics import Metrics
from service.http.openapi.document import refine_openapi
from service.http.problems import EXCEPTION_HANDLERS
from service.http.routes.game_reads import GameReadsController
from service.http.routes.games import GamesController
from service.http.routes.log import LogController
from service.http.routes.matchmaking import MatchmakingController
from service.http.routes.meta import MetaController
from service.http.routes.pages import PageController, static_files
from service.http.routes.players import PlayerController
from service.http.routes.rematch import RematchController
from service.http.routes.rules import RulesController
from service.http.routes.webhooks import WebhookController
from service.live.streams import Live
from service.settings import Settings
from service.threads import LoopThreads

API_VERSION = "0.1.0"
INSTANCE_HEADER = "Cardledger-Instance"
# Headers a browser client on another origin may send and read.
CORS_REQUEST_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "If-Match"]
CORS_REQUEST_HEADERS += ["If-None-Match", "Last-Event-ID"]
CORS_EXPOSED_HEADERS = ["ETag", "Link", "Retry-After", INSTANCE_HEADER, "RateLimit-Limit"]
CORS_EXPOSED_HEADERS += ["RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy"]


def cors(settings: Settings) -> CORSConfig | None:
    """Browsers on the listed origins may call the API (tokens travel in headers, never in
    cookies, so no credentials are allowed)."""
    if not settings.cors_origins:
        return None
    return CORSConfig(
        allow_origins=settings.cors_origins.split(","),
        allow_methods=["GET", "POST", "PUT", "DELETE", "OPTIONS"],
        allow_headers=CORS_REQUEST_HEADERS,
        expose_headers=CORS_EXPOSED_HEADERS,
        max_age=3600,
    )


def create_app(settings: Settings | None = None, ledger: Cardledger | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    ledger = ledger or Cardledger(settings)
    live = Live(ledger)
    background = BackgroundWork(ledger, consumers=[live.feeds], others=live.workers)
    instance = secrets.token_hex(4)
    lag = LogLag(ledger.store, background.log_readers(), ledger.clock)
    workers = WorkerCollector(background.health)
    hooks = WebhookTotals(ledger.webhooks.tables)
    metrics = Metrics(
        instance, ledger.telemetry.registry, lag, workers, hooks, token=settings.metrics_token
    )
    metrics.held(what="games").set_function(lambda: len(ledger.games))
    metrics.held(what="followed_games").set_function(live.feeds.followed)
    allowance = Allowance(settings.limits_url, fallback=metrics.count_limits_fallback)
    slots = StreamSlots(settings.limits, allowance)
    provided = dependencies(ledger, live=live, slots=slots, metrics=metrics)

    def start() -> None:
        # Blocking store calls run in these threads, sized with the connection pool. Set here,
        # on the running loop: uvicorn's worker processes import the app inside their loop.
        LoopThreads(settings.threads, "store").serve(asyncio.get_running_loop())
        background.start()

    def stop() -> None:
        background.stop()
        ledger.close()

    app = Litestar(
        route_handlers=[
            PlayerController,
            WebhookController,
            GamesController,
            GameReadsController,
            LogController,
            MatchmakingController,
            MetaController,
            PageController,
            RematchController,
            RulesController,
            static_files,
        ],
        exception_handlers=EXCEPTION_HANDLERS,
        request_max_body_size=settings.max_body_bytes,
        middleware=[
            lambda app: enveloped(
                app,
                metrics,
                {INSTANCE_HEADER: instance},
                rate_rules(settings.limits),
                allowance,
                settings.store_timeout,
                TokenAuthentication(ledger.players),
            ),
        ],
        cors_config=cors(settings),
        openapi_config=OpenAPIConfig(title="cardledger", version=API_VERSION),
        response_headers=[
            ResponseHeader(
                name=INSTANCE_HEADER,
                value=instance,
                documentation_only=True,  # the envelope gives it to every answer
                description="Which server process answered (an opaque id per process)",
            )
        ],
        on_startup=[start],
        on_shutdown=[stop],
        dependencies=provided,
        state=State({"metrics": metrics, "live": live, "background": background}),
    )
    refine_openapi(app)
    return app
