"""RFC 9457 problem details for every error, each with a stable ``code``."""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from domain.errors import Failure, RuleViolation
from service.errors import ApiError
from service.store.postgres import OutcomeUnknown

PROBLEM_JSON = "application/problem+json"
RETRY_AFTER_SECONDS = 1
log = logging.getLogger("cardledger")

FAILURE_STATUS = {
    Failure.INVALID: 422,
    Failure.CONFLICT: 409,
    Failure.FORBIDDEN: 403,
    Failure.NOT_FOUND: 404,
}

HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
}


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


def on_rule_violation(request: Request[Any, Any, Any], error: RuleViolation) -> Response[Any]:
    return problem(request, FAILURE_STATUS[error.failure], error.code, error.message)


def on_validation_error(
    request: Request[Any, Any, Any], error: ValidationException
) -> Response[Any]:
    """A path, query or header parameter of the wrong shape (bodies are decoded by us)."""
    return problem(request, 400, "invalid_parameter", str(error.detail), errors=error.extra or [])


def on_http_exception(request: Request[Any, Any, Any], error: HTTPException) -> Response[Any]:
    status = error.status_code
    code = HTTP_CODES.get(status, "http_error" if status < 500 else "internal_error")
    detail = str(error.detail) if status < 500 else "internal error"
    headers = dict(error.headers or {})  # e.g. Allow, or the RateLimit-* of a 429
    if status == 429 and "RateLimit-Reset" in headers:
        headers["Retry-After"] = headers["RateLimit-Reset"]
    return problem(request, status, code, detail, headers=headers)


def on_store_unavailable(
    request: Request[Any, Any, Any], error: OperationalError | InterfaceError
) -> Response[Any]:
    """The store is down, unreachable or locked: say so quickly, and when to try again."""
    log.warning("store unavailable on %s %s: %s", request.method, request.url.path, error)
    detail = (
        "the event store failed or did not answer in time: a write may or may not have been"
        " recorded; retry it with the same Idempotency-Key, or read the game first"
        if isinstance(error, OutcomeUnknown)
        else "the event store is unavailable; nothing was changed, try again"
    )
    return problem(
        request,
        503,
        "store_unavailable",
        detail,
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


def on_unexpected(request: Request[Any, Any, Any], error: Exception) -> Response[Any]:
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=error)
    return problem(request, 500, "internal_error", "internal error")


EXCEPTION_HANDLERS: dict[Any, Any] = {
    ApiError: on_api_error,
    ValidationException: on_validation_error,
    RuleViolation: on_rule_violation,
    OperationalError: on_store_unavailable,
    InterfaceError: on_store_unavailable,
    HTTPException: on_http_exception,
    Exception: on_unexpected,
}
