"""One deadline for a whole webhook delivery attempt.

httpcore's timeouts bound each connect, read and write on its own: a receiver that trickles its
answer, a byte at a time, never lets a read time out and holds a delivery thread as long as it
likes. The deliverer's connections go through ``DeadlineBackend``, which gives every socket
operation at most the time left before the deadline its thread set (``Deadline.within``), so an
attempt (connecting, sending, reading the answer's status and headers) ends by then.
"""

from __future__ import annotations

import ssl
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import httpcore


class Deadline:
    """The deadline of the attempt each thread is making, if it set one."""

    def __init__(self) -> None:
        self._local = threading.local()

    @contextmanager
    def within(self, seconds: float) -> Iterator[None]:
        self._local.at = time.monotonic() + seconds
        try:
            yield
        finally:
            self._local.at = None

    def left(self, timeout: float | None, expired: type[Exception]) -> float | None:
        """The smaller of ``timeout`` and the time left; ``expired`` raised once none is."""
        at: float | None = getattr(self._local, "at", None)
        if at is None:
            return timeout
        left = at - time.monotonic()
        if left <= 0:
            raise expired("the attempt's deadline passed")
        return left if timeout is None else min(timeout, left)


class DeadlineStream(httpcore.NetworkStream):
    def __init__(self, stream: httpcore.NetworkStream, deadline: Deadline) -> None:
        self._stream = stream
        self._deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, self._deadline.left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, self._deadline.left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        left = self._deadline.left(timeout, httpcore.ConnectTimeout)
        return DeadlineStream(
            self._stream.start_tls(ssl_context, server_hostname, left), self._deadline
        )

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's blocking sockets, each operation bounded by the thread's deadline too."""

    def __init__(self, deadline: Deadline) -> None:
        self._backend = httpcore.SyncBackend()
        self._deadline = deadline

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        left = self._deadline.left(timeout, httpcore.ConnectTimeout)
        stream = self._backend.connect_tcp(host, port, left, local_address, socket_options)
        return DeadlineStream(stream, self._deadline)

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)
