"""uvicorn's HTTP protocol with a deadline on each request's arrival.

uvicorn closes idle keep-alive connections, but a connection that sends nothing, or sends a
request's headers or body a byte at a time, holds a worker's socket for ever. Here each
connection must deliver its first byte, and each request its headers and body, within
CARDLEDGER_REQUEST_SECONDS, or it is closed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.settings import Settings

REQUEST_SECONDS = Settings.from_env().limits.request_seconds


class TimedHttpToolsProtocol(HttpToolsProtocol):
    deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm()  # the first request must begin in time too

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._disarm()  # the request is in; the keep-alive timer takes over after the answer

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        if REQUEST_SECONDS:
            self.deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        self.deadline = None
        if not self.transport.is_closing():
            self.transport.close()
