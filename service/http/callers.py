"""What every handler needs: the application, who is calling, and the request's headers."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request
from litestar.datastructures import State
from litestar.params import HeaderParameter

from service.application import Cardledger
from service.auth import Principal, bearer_token
from service.errors import ApiError, unauthorized
from service.numbers import whole_number
from service.results import Idempotency, request_digest

IdempotencyKey = Annotated[str | None, HeaderParameter(name="Idempotency-Key", required=False)]
IfMatch = Annotated[str | None, HeaderParameter(name="If-Match", required=False)]
MAX_IDEMPOTENCY_KEY = 128
# A bound on versions in queries, far past any real game; beyond them the stores' integers
# overflow (a 500 before these bounds existed).
MAX_VERSION = 10**12


def ledger(state: State) -> Cardledger:
    app: Cardledger = state.ledger
    return app


def caller(
    request: Request[Any, Any, Any], state: State, *, required: bool = True
) -> Principal | None:
    token = bearer_token(request.headers.get("Authorization"))
    if token is None:
        if required:
            raise unauthorized()
        return None
    return ledger(state).authenticate(token)


def optional_caller(request: Request[Any, Any, Any], state: State) -> Principal | None:
    return caller(request, state, required=False)


def player(request: Request[Any, Any, Any], state: State) -> Principal:
    principal = caller(request, state)
    assert principal is not None
    return principal


def idempotency(
    key: str | None, request: Request[Any, Any, Any], body: object
) -> Idempotency | None:
    if key is None:
        return None
    if not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY or not key.isprintable():
        raise ApiError(
            400,
            "invalid_idempotency_key",
            f"Idempotency-Key is 1 to {MAX_IDEMPOTENCY_KEY} printable characters",
        )
    return Idempotency(key=key, digest=request_digest(request.method, request.url.path, body))


def parse_if_match(value: str | None) -> int | None:
    if value is None:
        return None
    version = whole_number(value.strip().removeprefix("W/").strip('"'))
    if version is None:
        raise ApiError(400, "invalid_if_match", 'If-Match must be a game version, e.g. "12"')
    return version
