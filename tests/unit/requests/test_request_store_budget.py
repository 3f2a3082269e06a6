"""Each request's store work has one budget, set by the HTTP layer (service/http/envelope.py); live
streams, which read for as long as they are open, have none."""

from __future__ import annotations

import asyncio
from typing import Any

from litestar.concurrency import sync_to_thread

from service.http.allowance import Allowance
from service.http.envelope import enveloped
from service.http.metrics import Metrics
from service.store.budget import left

UNBOUNDED = 1000.0


def budget_seen_by_a_handler_thread(path: str, scope_type: str = "http") -> float:
    """What a blocking handler (run in a thread, as the store's callers are) sees left."""
    seen: list[float] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(await sync_to_thread(left, UNBOUNDED))

    async def nothing() -> dict[str, Any]:
        return {}

    async def ignore(message: Any) -> None:
        pass

    budgeted = enveloped(app, Metrics("test"), {}, [], Allowance(None, lambda count: None), 5)
    scope = {"type": scope_type, "path": path, "headers": []}
    asyncio.run(budgeted(scope, nothing, ignore))
    return seen[0]


def test_a_request_has_the_store_timeout_for_all_its_store_work() -> None:
    assert 4.0 < budget_seen_by_a_handler_thread("/games/abc/commands") <= 5.0


def test_live_streams_have_no_budget() -> None:
    assert budget_seen_by_a_handler_thread("/games/abc/stream") == UNBOUNDED
    assert budget_seen_by_a_handler_thread("/players/me/stream") == UNBOUNDED
    assert budget_seen_by_a_handler_thread("/", scope_type="lifespan") == UNBOUNDED
