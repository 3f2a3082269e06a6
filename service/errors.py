"""Errors the service raises besides rule violations, each with a stable code."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A refusal with its status, stable code and words; ``extra`` members go in the problem's
    body, ``headers`` on its response (Retry-After, ...)."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra


def not_found(what: str) -> ApiError:
    return ApiError(404, f"{what}_not_found", f"no such {what}")


def unauthorized(detail: str = "a valid bearer token is required") -> ApiError:
    return ApiError(401, "unauthorized", detail)
