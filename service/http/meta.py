"""The service itself: variants, the leaderboard, liveness, readiness and metrics."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from litestar import Controller, Request, Response, get
from litestar.concurrency import sync_to_thread
from litestar.datastructures import State
from litestar.params import QueryParameter

from service.errors import ApiError
from service.http.bodies import Health, VariantInfo, variant_catalog
from service.http.callers import ledger
from service.http.metrics import CONTENT_TYPE as METRICS_TYPE
from service.http.metrics import Metrics
from service.http.paging import Cursor, Cursors
from service.results import BoardPlace, Leaderboard

MAX_ROWS = 500
READY_SECONDS = 0.8  # /ready answers within a second, whatever the store does


class MetaController(Controller):
    tags = ["meta"]

    @get("/variants", operation_id="listVariants", summary="Variants, player counts and options")
    async def variants(self) -> list[VariantInfo]:
        return variant_catalog()

    @get(
        "/leaderboard",
        operation_id="getLeaderboard",
        summary="Players ranked per variant: games, wins, points; a page of rows at a time",
        sync_to_thread=True,
    )
    def leaderboard(
        self,
        request: Request[Any, Any, Any],
        state: State,
        variant: Annotated[str | None, QueryParameter(required=False)] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_ROWS)] = 100,
        cursor: Cursor = None,
    ) -> Response[list[Leaderboard]]:
        cursors = Cursors(state, "leaderboard", variant=variant)
        after = cursors.place(cursor, dict[str, BoardPlace])
        return cursors.answer(request, ledger(state).leaderboard(variant, limit=limit, after=after))

    @get("/health", operation_id="health", summary="Liveness")
    async def health(self) -> Health:
        return Health(status="ok")

    @get(
        "/metrics",
        operation_id="metrics",
        summary="Prometheus metrics of the process that answers",
        media_type=METRICS_TYPE,
    )
    async def metrics(self, state: State) -> Response[bytes]:
        metrics: Metrics = state.metrics
        app = ledger(state)
        metrics.held(what="games").set(len(app.games))
        metrics.held(what="followed_games").set(app.feeds.followed())
        return Response(await sync_to_thread(metrics.text), media_type=METRICS_TYPE)

    @get(
        "/ready",
        operation_id="ready",
        summary="Readiness: the event store answers a read, within a second",
    )
    async def ready(self, state: State) -> Health:
        try:
            await asyncio.wait_for(sync_to_thread(ledger(state).ready), READY_SECONDS)
        except Exception as error:  # a timeout, or whatever the store raised
            raise ApiError(
                503,
                "store_unavailable",
                f"the event store does not answer: {type(error).__name__}",
                headers={"Retry-After": "1"},
            ) from None
        return Health(status="ready")
