"""The service itself: variants, the leaderboard, liveness, readiness and metrics."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from litestar import Controller, Request, Response, get
from litestar.di import NamedDependency
from litestar.params import QueryParameter

from domain.variants import REFUSALS as REGISTRY_REFUSALS
from service.application import Cardledger
from service.application.results import Leaderboard
from service.errors import INVALID_CURSOR, STORE_UNAVAILABLE, UNAUTHORIZED
from service.http.bodies import Health, VariantInfo, variant_catalog
from service.http.contract import METRICS_TOKEN, Token, declare, rule_refusals
from service.http.metrics import CONTENT_TYPE as METRICS_TYPE
from service.http.metrics import Metrics
from service.http.paging import Cursor, Cursors
from service.http.routes.off_loop import off_loop
from service.read_models.pages import BoardPlace, RatingPlace
from service.threads import on_thread

MAX_ROWS = 500
READY_SECONDS = 0.8  # /ready answers within a second, whatever the store does


class MetaController(Controller):
    tags = ["meta"]

    @get(
        "/variants",
        operation_id="listVariants",
        summary="Variants, player counts and options",
        **declare(Token.NONE, store=False),
    )
    async def variants(self) -> list[VariantInfo]:
        return variant_catalog()

    @get(
        "/leaderboard",
        operation_id="getLeaderboard",
        summary="Players ranked per variant: games, wins, points, rating; a page of rows at a time",
        **declare(Token.NONE, INVALID_CURSOR, rule_refusals(REGISTRY_REFUSALS.items()), paged=True),
    )
    @off_loop
    def leaderboard(
        self,
        request: Request[Any, Any, Any],
        ledger: NamedDependency[Cardledger],
        variant: Annotated[str | None, QueryParameter(required=False)] = None,
        sort: Annotated[
            Literal["wins", "rating"],
            QueryParameter(
                description="`wins` (the default): most wins, then points, then fewer games;"
                " `rating`: the highest rating first, then the smaller uncertainty"
            ),
        ] = "wins",
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_ROWS)] = 100,
        cursor: Cursor = None,
    ) -> Response[list[Leaderboard]]:
        cursors = Cursors(ledger.tickets, "leaderboard", variant=variant, sort=sort)
        by_rating = sort == "rating"
        after: Mapping[str, RatingPlace | BoardPlace] | None
        if by_rating:
            after = cursors.place(cursor, dict[str, RatingPlace])
        else:
            after = cursors.place(cursor, dict[str, BoardPlace])
        return cursors.answer(
            request,
            ledger.queries.leaderboard(variant, by_rating=by_rating, limit=limit, after=after),
        )

    @get("/health", operation_id="health", summary="Liveness", **declare(Token.NONE, store=False))
    async def health(self) -> Health:
        return Health(status="ok")

    @get(
        "/metrics",
        operation_id="metrics",
        summary="Prometheus metrics of the process that answers",
        media_type=METRICS_TYPE,
        **declare(Token.NONE, UNAUTHORIZED, store=False, credential=METRICS_TOKEN),
    )
    async def metrics(
        self, request: Request[Any, Any, Any], metrics: NamedDependency[Metrics]
    ) -> Response[bytes]:
        if not metrics.allows(request.headers.get("Authorization")):
            raise UNAUTHORIZED("the metrics need the bearer token set in CARDLEDGER_METRICS_TOKEN")
        return Response(await on_thread(metrics.text), media_type=METRICS_TYPE)

    @get(
        "/ready",
        operation_id="ready",
        summary="Readiness: the event store answers a read, within a second",
        **declare(Token.NONE),
    )
    async def ready(self, ledger: NamedDependency[Cardledger]) -> Health:
        try:
            await asyncio.wait_for(on_thread(ledger.queries.ready), READY_SECONDS)
        except Exception as error:  # a timeout, or whatever the store raised
            raise STORE_UNAVAILABLE(
                f"the event store does not answer: {type(error).__name__}",
                headers={"Retry-After": "1"},
            ) from None
        return Health(status="ready")
