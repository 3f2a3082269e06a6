"""What handlers are given by litestar's dependency injection (the application, ``ledger``,
and the process's other parts), and the request's own headers read into values.

A handler takes one dependency at most (the stream takes two): litestar resolves the
dependencies of one level together in a task group, which cost a command a quarter of its time.
Who is calling comes from the sign-in (``service/http/authentication.py``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Annotated, Any

from litestar import Request
from litestar.di import Provide
from litestar.params import HeaderParameter

from domain.chain import canonical
from service.application import Cardledger
from service.errors import INVALID_IDEMPOTENCY_KEY, INVALID_IF_MATCH
from service.numbers import whole_number
from service.store.receipts import Idempotency

IdempotencyKey = Annotated[str | None, HeaderParameter(name="Idempotency-Key", required=False)]
IfMatch = Annotated[str | None, HeaderParameter(name="If-Match", required=False)]
MAX_IDEMPOTENCY_KEY = 128
# A bound on versions in queries, far past any real game; beyond them the stores' integers
# overflow (a 500 before these bounds existed).
MAX_VERSION = 10**12


def dependencies(ledger: Cardledger, **parts: object) -> dict[str, Provide]:
    """The app's dependencies: ``ledger`` and the process's other ``parts``."""
    every: dict[str, object] = {"ledger": ledger, **parts}
    return {
        name: Provide(_constant(part), use_cache=True, sync_to_thread=False)
        for name, part in every.items()
    }


def _constant(value: object) -> Callable[[], object]:
    def provide() -> object:
        return value

    return provide


def idempotency(
    key: str | None, request: Request[Any, Any, Any], body: object
) -> Idempotency | None:
    """The Idempotency-Key with the digest of the request it came with (method, path and the
    body's canonical JSON)."""
    if key is None:
        return None
    if not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY or not key.isprintable():
        raise INVALID_IDEMPOTENCY_KEY(
            f"Idempotency-Key is 1 to {MAX_IDEMPOTENCY_KEY} printable characters"
        )
    return Idempotency(key=key, digest=request_digest(request.method, request.url.path, body))


def request_digest(method: str, path: str, body: object) -> str:
    return hashlib.sha256(
        method.encode() + b" " + path.encode() + b"\n" + canonical(body)
    ).hexdigest()


def parse_if_match(value: str | None) -> int | None:
    if value is None:
        return None
    version = whole_number(value.strip().removeprefix("W/").strip('"'))
    if version is None:
        raise INVALID_IF_MATCH('If-Match must be a game version, e.g. "12"')
    return version
