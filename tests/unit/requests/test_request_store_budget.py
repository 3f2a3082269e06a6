"""Each request's store work has one budget, its caller's token lookup included, set by the HTTP
layer (service/http/envelope.py); live streams, which read for as long as they are open, have
none."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

from service.http.allowance import Allowance
from service.http.authentication import TokenAuthentication
from service.http.envelope import enveloped
from service.http.metrics import Metrics
from service.store.budget import left
from service.threads import on_thread

UNBOUNDED = 1000.0


def budgets_seen(path: str, scope_type: str = "http") -> list[float]:
    """What the caller's token lookup, then a blocking handler, see left (each run in a thread,
    as the store's callers are)."""
    seen: list[float] = []

    class Players:
        def remembered(self, token: str) -> None:
            return None  # a token this process has not seen: asked of the store

        def authenticate(self, token: str) -> None:
            seen.append(left(UNBOUNDED))

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(await on_thread(left, UNBOUNDED))

    async def nothing() -> dict[str, Any]:
        return {}

    async def ignore(message: Any) -> None:
        pass

    signing_in = TokenAuthentication(cast(Any, Players()))
    allowance = Allowance(None, lambda count: None)
    budgeted = enveloped(app, Metrics("test"), {}, [], allowance, 5, signing_in)
    scope = {
        "type": scope_type,
        "path": path,
        "method": "GET",
        "headers": [(b"authorization", b"Bearer new")],
        "route_handler": SimpleNamespace(opt={}),
    }
    asyncio.run(budgeted(scope, nothing, ignore))
    return seen


def test_a_request_has_the_store_timeout_for_all_its_store_work_its_token_lookup_too() -> None:
    token_lookup, handler = budgets_seen("/games/abc/commands")
    assert 4.0 < token_lookup <= 5.0 and 4.0 < handler <= 5.0


def test_live_streams_have_no_budget() -> None:
    assert budgets_seen("/games/abc/stream") == [UNBOUNDED, UNBOUNDED]
    assert budgets_seen("/players/me/stream") == [UNBOUNDED, UNBOUNDED]
    assert budgets_seen("/", scope_type="lifespan") == [UNBOUNDED]  # never signed in
