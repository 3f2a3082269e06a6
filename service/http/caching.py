"""Validators and caching for a game's read answers.

Every answer about one game is a function of its chain head (which names its whole history)
and of who asks: its ETag is derived from those, so a client can revalidate with
`If-None-Match` and get `304` without the body. Once the game is over its history can never
grow and every perspective sees everything, so those answers are immutable and may be cached
by anyone; while it runs they are private to the caller and must be revalidated.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from litestar import Request, Response

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "private, no-cache"
VERSION_DIGITS = 9  # a game's versions stay far below 10**9


class Validator:
    def __init__(self, *parts: object, over: bool, version: int | None = None) -> None:
        """``version``: the game's, written first in the ETag so that a client sending it back
        says which version it holds (a read from a standby must not go back before it)."""
        digest = hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:32]
        self.etag = f'"{digest}"' if version is None else f'"{version}.{digest}"'
        self.over = over

    @property
    def headers(self) -> dict[str, str]:
        return {"ETag": self.etag, "Cache-Control": IMMUTABLE if self.over else REVALIDATE}

    def matches(self, request: Request[Any, Any, Any]) -> bool:
        """Whether the client already holds this answer (If-None-Match, weak or strong)."""
        wanted = request.headers.get("If-None-Match")
        if not wanted:
            return False
        tags = {tag.strip().removeprefix("W/") for tag in wanted.split(",")}
        return "*" in tags or self.etag in tags

    def answer(
        self,
        request: Request[Any, Any, Any],
        produce: Callable[[], Any],
        headers_of: Callable[[Any], dict[str, str]] | None = None,
    ) -> Response[Any]:
        """``304`` if the client holds it, else ``produce()`` with the validator's headers and
        those ``headers_of`` makes from it: its Link to the next page. The validator covers what
        decides that Link, so on a 304 the client keeps the one of the 200 it holds."""
        if self.matches(request):
            return Response(content=b"", status_code=304, headers=self.headers)
        content = produce()
        extra = headers_of(content) if headers_of is not None else {}
        return Response(content=content, headers={**self.headers, **extra})


def held_version(request: Request[Any, Any, Any]) -> int:
    """The newest game version among the ETags the client sends back (0 if none names one)."""
    return newest_version(request.headers.get("If-None-Match"))


def newest_version(if_none_match: str | None) -> int:
    held = 0
    for tag in (if_none_match or "").split(","):
        version, dot, _ = tag.strip().removeprefix("W/").strip('"').partition(".")
        if dot and version.isdigit() and len(version) <= VERSION_DIGITS:
            held = max(held, int(version))
    return held
