"""RFC 9457 problem details for every error, each with a stable ``code``."""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.types import ASGIApp, Scope

from domain.errors import RuleViolation
from service.errors import INVALID_PARAMETER, STORE_UNAVAILABLE, ApiError
from service.http.contract import FAILURE_STATUS, HTTP_CODES, INTERNAL_ERROR, OTHER_HTTP_CODE
from service.store.postgres import OutcomeUnknown

PROBLEM_JSON = "application/problem+json"
RETRY_AFTER_SECONDS = 1
log = logging.getLogger("cardledger")


def problem(
    request: Request[Any, Any, Any],
    status: int,
    code: str,
    detail: str,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> Response[Any]:
    metrics = getattr(request.app.state, "metrics", None)
    if metrics is not None:
        metrics.problems(str(status), code).inc()
    body = {
        "type": f"urn:cardledger:problem:{code}",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
        "instance": request.url.path,
        **extra,
    }
    headers = {**(headers or {}), **({"WWW-Authenticate": "Bearer"} if status == 401 else {})}
    return Response(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def on_api_error(request: Request[Any, Any, Any], error: ApiError) -> Response[Any]:
    return problem(
        request, error.status, error.code, error.detail, headers=error.headers, **error.extra
    )


def answer_to(scope: Scope, error: ApiError) -> ASGIApp:
    """The problem answer to ``error`` as an ASGI app: for a refusal made before the route runs
    (a rate limit, a sign-in), answered through the caller's ``send`` rather than raised past
    the middleware that counts answers and gives them their common headers."""
    request: Request[Any, Any, Any] = Request(scope)
    return on_api_error(request, error).to_asgi_response(None, request)


def on_rule_violation(request: Request[Any, Any, Any], error: RuleViolation) -> Response[Any]:
    return problem(request, FAILURE_STATUS[error.failure], error.code, error.message)


def on_validation_error(
    request: Request[Any, Any, Any], error: ValidationException
) -> Response[Any]:
    """A path, query or header parameter of the wrong shape (bodies are decoded by us)."""
    return problem(request, *INVALID_PARAMETER, str(error.detail), errors=error.extra or [])


def on_http_exception(request: Request[Any, Any, Any], error: HTTPException) -> Response[Any]:
    status = error.status_code
    code = HTTP_CODES.get(status, OTHER_HTTP_CODE if status < 500 else INTERNAL_ERROR)
    detail = str(error.detail) if status < 500 else "internal error"
    return problem(request, status, code, detail, headers=dict(error.headers or {}))  # e.g. Allow


def on_store_unavailable(
    request: Request[Any, Any, Any], error: OperationalError | InterfaceError
) -> Response[Any]:
    """The store is down, unreachable or locked: say so quickly, and when to try again."""
    log.warning("store unavailable on %s %s: %s", request.method, request.url.path, error)
    if request.method in ("GET", "HEAD"):
        detail = "the event store failed or did not answer in time; try again"
    elif isinstance(error, OutcomeUnknown):
        detail = (
            "the event store failed or did not answer in time: a write may or may not have"
            " been recorded; retry it with the same Idempotency-Key, or read the game first"
        )
    else:
        detail = "the event store is unavailable; nothing was changed, try again"
    retry = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    return problem(request, *STORE_UNAVAILABLE, detail, headers=retry)


def on_unexpected(request: Request[Any, Any, Any], error: Exception) -> Response[Any]:
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=error)
    return problem(request, 500, INTERNAL_ERROR, "internal error")


EXCEPTION_HANDLERS: dict[Any, Any] = {
    ApiError: on_api_error,
    ValidationException: on_validation_error,
    RuleViolation: on_rule_violation,
    OperationalError: on_store_unavailable,
    InterfaceError: on_store_unavailable,
    HTTPException: on_http_exception,
    Exception: on_unexpected,
}
