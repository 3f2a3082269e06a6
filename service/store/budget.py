"""One store budget per request: however many connections and statements a request's store work
takes (its token's lookup, the game's load, the insert, the read models), they all end by one
deadline, the store timeout after the request began.

Each wait alone is bounded already (the pool's timeout, the statement watchdog, the network
bounds), but not their sum: a request that waited almost the whole timeout for a connection
could then wait as long again for its statement, and a request with several store calls could
wait that long for each. The HTTP layer opens the budget; background work runs without one and
keeps each wait's own bound.
"""

from __future__ import annotations

import time
from contextvars import ContextVar, Token

# A context variable, so that the threads a request's blocking calls run in (which copy the
# request's context) see the request's deadline, and nothing else does.
_deadline: ContextVar[float | None] = ContextVar("store_deadline", default=None)


class budget:  # noqa: N801 (used as a function: ``with budget(seconds):``)
    """Store work started inside ends within ``seconds`` from now. A class, not a generator:
    every request opens one, and a generator's context manager costs twice as much."""

    def __init__(self, seconds: float) -> None:
        self._seconds = seconds
        self._token: Token[float | None] | None = None

    def __enter__(self) -> None:
        self._token = _deadline.set(time.monotonic() + self._seconds)

    def __exit__(self, *exc_info: object) -> None:
        if self._token is not None:
            _deadline.reset(self._token)


def left(bound: float) -> float:
    """``bound``, or what is left of the budget if that is less (never below zero)."""
    deadline = _deadline.get()
    if deadline is None:
        return bound
    return max(0.0, min(bound, deadline - time.monotonic()))
