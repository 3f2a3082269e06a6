"""Limits on what one client may do: request rates (litestar's rate-limit middleware, keyed by
client address, by bearer token, and for registrations) and live streams open at once.

Counts are kept per process: with N workers a client gets up to N times the rate. Behind a
proxy, set CARDLEDGER_TRUSTED_PROXIES so the address is the client's, not the proxy's.
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from litestar import Request
from litestar.middleware.base import DefineMiddleware
from litestar.middleware.rate_limit import RateLimitConfig

from service.auth import bearer_token
from service.errors import ApiError
from service.settings import Limits

UNLIMITED = ["/health", "/ready", "/metrics", "/static"]  # probes, scrapes, the viewer's files


def address(request: Request[Any, Any, Any]) -> str:
    return request.client.host if request.client else "unknown"


def token_key(request: Request[Any, Any, Any]) -> str:
    """A bearer token's digest (the token itself is never kept), or the ticket's."""
    token = bearer_token(request.headers.get("Authorization"))
    secret = token or str(request.query_params.get("ticket") or "")
    return hashlib.sha256(secret.encode()).hexdigest()


def has_token(request: Request[Any, Any, Any]) -> bool:
    return bearer_token(request.headers.get("Authorization")) is not None


def is_registration(request: Request[Any, Any, Any]) -> bool:
    return request.method == "POST" and request.url.path.rstrip("/") == "/players"


def rate_limits(limits: Limits) -> list[DefineMiddleware]:
    """One middleware per limit that is on."""
    found = []
    if limits.per_address:
        found.append(
            RateLimitConfig(
                rate_limit=("minute", limits.per_address),
                identifier_for_request=address,
                exclude=UNLIMITED,
                store="rate_per_address",
            ).middleware
        )
    if limits.per_token:
        found.append(
            RateLimitConfig(
                rate_limit=("minute", limits.per_token),
                identifier_for_request=token_key,
                check_throttle_handler=has_token,
                exclude=UNLIMITED,
                store="rate_per_token",
            ).middleware
        )
    if limits.registrations:
        found.append(
            RateLimitConfig(
                rate_limit=("minute", limits.registrations),
                identifier_for_request=address,
                check_throttle_handler=is_registration,
                store="rate_registrations",
            ).middleware
        )
    return found


class StreamSlots:
    """Live streams open at once, per client address and per token (or ticket holder)."""

    def __init__(self, limits: Limits) -> None:
        self._limits = limits
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, request: Request[Any, Any, Any], holder: str | None) -> Callable[[], None]:
        """A slot for one stream; returns what gives it back. 429 ``too_many_streams`` if the
        client has its fill open."""
        keys = []
        if self._limits.streams_per_address:
            keys.append((f"address:{address(request)}", self._limits.streams_per_address))
        if holder is not None and self._limits.streams_per_token:
            keys.append((f"holder:{holder}", self._limits.streams_per_token))
        with self._lock:
            if any(self._open[key] >= most for key, most in keys):
                raise ApiError(
                    429,
                    "too_many_streams",
                    "too many live streams are open from here; close one first",
                    headers={"Retry-After": "5"},
                )
            for key, _ in keys:
                self._open[key] += 1

        given = threading.Event()

        def give_back() -> None:
            if given.is_set():
                return  # once, whoever calls first: the stream's end or its collection
            given.set()
            with self._lock:
                for key, _ in keys:
                    self._open[key] -= 1
                    if self._open[key] <= 0:
                        del self._open[key]

        return give_back
