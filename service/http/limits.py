"""Limits on what one client may do: request rates (keyed by client address, by bearer token,
and for registrations) and live streams open at once.

Counts are kept per process unless CARDLEDGER_LIMITS_URL names a Redis (service/http/allowance.py):
then every worker and node draws on one allowance. Behind a proxy, set CARDLEDGER_TRUSTED_PROXIES
so the address is the client's, not the proxy's.
"""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import AsyncGenerator, Callable
from typing import Any, NamedTuple

from limits import RateLimitItem, RateLimitItemPerMinute
from litestar import Request
from litestar.background_tasks import BackgroundTask
from litestar.response import ServerSentEvent, ServerSentEventMessage
from litestar.types import ASGIApp, Scope

from service.auth import bearer_token
from service.errors import ApiError
from service.http.allowance import Allowance, Verdict
from service.http.headers import Encoded, encoded
from service.http.problems import answer_to
from service.settings import Limits

UNLIMITED = ("/health", "/ready", "/metrics", "/static")  # probes, scrapes, the viewer's files
UNLIMITED_FOLDERS = tuple(path + "/" for path in UNLIMITED)
WINDOW_SECONDS = 60


def address(request: Request[Any, Any, Any]) -> str:
    return request.client.host if request.client else "unknown"


class Asked(NamedTuple):
    """What the rules look at in a request, read once per request (not once per rule)."""

    request: Request[Any, Any, Any]
    path: str
    limited: bool  # not a probe, a scrape or the viewer's files
    token: str | None  # the bearer token, if any


def asked(request: Request[Any, Any, Any]) -> Asked:
    scope = request.scope
    path: str = scope.get("root_path", "") + scope["path"]  # request.url.path, without the URL
    limited = not (path in UNLIMITED or path.startswith(UNLIMITED_FOLDERS))
    return Asked(request, path, limited, bearer_token(request.headers.get("Authorization")))


def token_key(asked: Asked) -> str:
    """A bearer token's digest (the token itself is never kept), or the ticket's."""
    secret = asked.token or str(asked.request.query_params.get("ticket") or "")
    return hashlib.sha256(secret.encode()).hexdigest()


def by_address(asked: Asked) -> str:
    return address(asked.request)


def is_registration(asked: Asked) -> bool:
    return asked.request.method == "POST" and asked.path.rstrip("/") == "/players"


def every_request(asked: Asked) -> bool:
    return asked.limited


def with_token(asked: Asked) -> bool:
    return asked.token is not None and asked.limited


class Rule(NamedTuple):
    name: str  # the count's own key space
    item: RateLimitItem
    applies: Callable[[Asked], bool]
    identify: Callable[[Asked], str]


def rate_rules(limits: Limits) -> list[Rule]:
    """One rule per limit that is on."""
    found = []
    if limits.per_address:
        found.append(
            Rule("address", RateLimitItemPerMinute(limits.per_address), every_request, by_address)
        )
    if limits.per_token:
        found.append(Rule("token", RateLimitItemPerMinute(limits.per_token), with_token, token_key))
    if limits.registrations:
        registrations = RateLimitItemPerMinute(limits.registrations)
        found.append(Rule("registrations", registrations, is_registration, by_address))
    return found


def rate_headers(verdict: Verdict) -> dict[str, str]:
    return {
        "RateLimit-Policy": f"{verdict.limit}; w={WINDOW_SECONDS}",
        "RateLimit-Limit": str(verdict.limit),
        "RateLimit-Remaining": str(verdict.remaining),
        "RateLimit-Reset": str(verdict.reset_seconds),
    }


class RateCount(NamedTuple):
    """A request counted against the rate rules: the RateLimit-* headers of the tightest rule
    that applied (none if none did), or the answer to give instead if it is past an allowance."""

    headers: Encoded
    refusal: ASGIApp | None = None


UNCOUNTED = RateCount(())


async def rate_counted(scope: Scope, rules: list[Rule], allowance: Allowance) -> RateCount:
    """Counts the request against every rule that applies to it; past one's allowance, the
    refusal is 429 ``rate_limited``."""
    request: Request[Any, Any, Any] = Request(scope)
    facts = asked(request)
    tightest: Verdict | None = None
    for rule in rules:
        if not rule.applies(facts):
            continue
        verdict = await allowance.rates.hit(rule.item, rule.name, rule.identify(facts))
        if not verdict.allowed:
            refusal = ApiError(
                429,
                "rate_limited",
                "too many requests; wait for the window to start again",
                headers={**rate_headers(verdict), "Retry-After": str(verdict.reset_seconds)},
            )
            return RateCount((), answer_to(scope, refusal))
        if tightest is None or verdict.remaining < tightest.remaining:
            tightest = verdict
    return UNCOUNTED if tightest is None else RateCount(encoded(rate_headers(tightest)))


class StreamSlots:
    """Live streams open at once, per client address and per token (or ticket holder)."""

    def __init__(self, limits: Limits, allowance: Allowance) -> None:
        self._limits = limits
        self._allowance = allowance

    async def take(self, request: Request[Any, Any, Any], holder: str | None) -> Callable[[], None]:
        """A slot for one stream; returns what gives it back (once, whoever calls first: the
        stream's end or its collection). 429 ``too_many_streams`` if the client has its fill
        open."""
        wanted = []
        if self._limits.streams_per_address:
            wanted.append((f"address:{address(request)}", self._limits.streams_per_address))
        if holder is not None and self._limits.streams_per_token:
            wanted.append((f"holder:{holder}", self._limits.streams_per_token))
        if not wanted:
            return lambda: None
        give_back = await self._allowance.take_slot(wanted)
        if give_back is None:
            raise ApiError(
                429,
                "too_many_streams",
                "too many live streams are open from here; close one first",
                headers={"Retry-After": "5"},
            )
        given = False

        def once() -> None:
            nonlocal given
            if not given:
                given = True
                give_back()

        return once


def live_answer(
    stream: AsyncGenerator[ServerSentEventMessage, None], give_back: Callable[[], None]
) -> ServerSentEvent:
    """A live stream as the answer, its slot given back however the answer ends. A client gone
    while a message was being sent leaves the generator waiting at its ``yield``, which the
    framework's cancellation does not reach, and one gone before the stream's first read was
    done ends it before its ``finally`` is set up: either way only the garbage collector gave
    the slot back (a client was then refused a new stream for minutes). After the answer the
    stream is closed (its ``finally`` lets go of what it follows) and the slot given back, once;
    an answer never sent at all gives it back when collected."""
    weakref.finalize(stream, give_back)

    async def close() -> None:  # a coroutine function: litestar runs any other callable in a thread
        try:
            await stream.aclose()
        finally:
            give_back()

    return ServerSentEvent(stream, background=BackgroundTask(close))
