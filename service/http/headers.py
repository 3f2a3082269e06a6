"""Headers added to an answer as it starts, by middleware that wraps ASGI ``send``."""

from __future__ import annotations

from collections.abc import Mapping

from litestar.datastructures import MutableScopeHeaders
from litestar.types import Message


def add_headers(message: Message, headers: Mapping[str, str]) -> None:
    """Sets ``headers`` on ``message`` if it starts an answer (replacing any of the same name)."""
    if message["type"] == "http.response.start":
        answer = MutableScopeHeaders.from_message(message)
        for name, value in headers.items():
            answer[name] = value
