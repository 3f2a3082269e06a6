"""A minimal asyncio HTTP/1.1 keep-alive client, for the load generator.

On a small machine the load generator competes with the server for CPU, and a general client
(httpx: connection pools, header models, middleware) spends more per request than the server
spends answering ``GET /health``. This one does only what the bots need: one connection,
one request at a time, bodies by ``Content-Length`` or chunked, a timeout per request.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from contextlib import suppress
from typing import NamedTuple
from urllib.parse import urlsplit

# Bodies we send ourselves: a request without one still says so, or a server may wait for it.
METHODS_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})
MAX_HEAD_BYTES = 64 * 1024
HEX_DIGITS = b"0123456789abcdefABCDEF"


class HttpError(Exception):
    """A request that got no usable answer; ``kind`` says why, for counting."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class StaleConnection(Exception):
    """The server closed the connection before answering a byte (an idle keep-alive timeout)."""


class Response(NamedTuple):
    status: int
    headers: dict[str, str]  # names in lower case; repeated headers joined with ", "
    body: bytes


class Http1Connection:
    """One keep-alive connection to ``base_url``, (re)opened on demand."""

    def __init__(self, base_url: str, *, timeout: float = 30.0) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http:// or https:// URL: {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.host = parts.hostname
        self.port = parts.port or (443 if parts.scheme == "https" else 80)
        self.tls = parts.scheme == "https"
        self.prefix = parts.path.rstrip("/")
        self.host_header = parts.netloc.rpartition("@")[2]
        self.timeout = timeout
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        """Send one request and read its whole answer, whatever the status."""
        head = self._head(method, path, body, headers)
        done = False
        try:
            async with asyncio.timeout(self.timeout):
                answer = await self._send_with_one_retry(method, path, head + (body or b""))
            done = True
            return answer
        except TimeoutError:
            raise HttpError(
                "timeout", f"{method} {self.base_url}{path}: no answer in {self.timeout:g} s"
            ) from None
        finally:
            if not done:  # a half-read answer would poison the next request
                self.close()

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None

    async def aclose(self) -> None:
        writer = self._writer
        self.close()
        if writer is not None:
            with suppress(OSError):  # the peer may have reset it already
                await writer.wait_closed()

    def _head(
        self, method: str, path: str, body: bytes | None, headers: Mapping[str, str] | None
    ) -> bytes:
        lines = [f"{method} {self.prefix}{path} HTTP/1.1", f"Host: {self.host_header}"]
        if body is not None or method in METHODS_WITH_BODY:
            lines.append(f"Content-Length: {len(body or b'')}")
        if body:
            lines.append("Content-Type: application/json")
        if headers:
            lines += [f"{name}: {value}" for name, value in headers.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def _send_with_one_retry(self, method: str, path: str, request: bytes) -> Response:
        reused = self._writer is not None
        if reused and self._is_closed_by_peer():
            self.close()
            reused = False
        if self._writer is None:
            await self._connect()
        try:
            return await self._exchange(method, request)
        except StaleConnection:
            self.close()
            if not reused:
                raise HttpError(
                    "connection_lost", f"{method} {self.base_url}{path}: closed without an answer"
                ) from None
        # A connection we kept idle, closed before a byte of answer: the server's keep-alive
        # timeout raced this request, so it was not processed and one retry cannot apply it twice.
        await self._connect()
        try:
            return await self._exchange(method, request)
        except StaleConnection:
            raise HttpError(
                "connection_lost", f"{method} {self.base_url}{path}: closed without an answer"
            ) from None

    def _is_closed_by_peer(self) -> bool:
        assert self._reader is not None and self._writer is not None
        return self._reader.at_eof() or self._writer.is_closing()

    async def _connect(self) -> None:
        try:
            self._reader, self._writer = await asyncio.open_connection(
                self.host, self.port, ssl=self.tls or None, limit=MAX_HEAD_BYTES
            )
        except ConnectionRefusedError:
            raise HttpError(
                "connection_refused", f"cannot reach {self.base_url}: connection refused"
            ) from None
        except OSError as error:
            raise HttpError("connect_failed", f"cannot reach {self.base_url}: {error}") from None

    async def _exchange(self, method: str, request: bytes) -> Response:
        reader, writer = self._reader, self._writer
        assert reader is not None and writer is not None
        try:
            writer.write(request)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as error:
            if error.partial:
                raise HttpError("connection_lost", "closed in the middle of an answer") from None
            raise StaleConnection from None
        except (ConnectionResetError, BrokenPipeError):
            raise StaleConnection from None
        except OSError as error:
            raise HttpError("connection_lost", f"connection failed: {error}") from None
        except asyncio.LimitOverrunError:
            raise HttpError("bad_response", "response headers too large") from None
        status, headers, keep_alive = parse_head(head)
        while 100 <= status < 200:  # interim answers (100 Continue): the real one follows
            status, headers, keep_alive = parse_head(await reader.readuntil(b"\r\n\r\n"))
        try:
            body = await read_body(reader, method, status, headers)
        except asyncio.IncompleteReadError:
            raise HttpError("connection_lost", "closed in the middle of an answer") from None
        except OSError as error:
            raise HttpError(
                "connection_lost", f"failed in the middle of an answer: {error}"
            ) from None
        if not keep_alive or ends_with_close(method, status, headers):
            self.close()
        return Response(status, headers, body)


def parse_head(head: bytes) -> tuple[int, dict[str, str], bool]:
    """Status, headers and whether the connection stays open, from a response head."""
    lines = head.decode("latin-1").split("\r\n")
    version, _, rest = lines[0].partition(" ")
    code = rest[:3]
    if not version.startswith("HTTP/1.") or not code.isdigit():
        raise HttpError("bad_response", f"not an HTTP/1.x status line: {lines[0][:80]!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, colon, value = line.partition(":")
        if not colon:
            raise HttpError("bad_response", f"malformed header line: {line[:80]!r}")
        name = name.strip().lower()
        value = value.strip()
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    connection = headers.get("connection", "").lower()
    keep_alive = "keep-alive" in connection if version == "HTTP/1.0" else "close" not in connection
    return int(code), headers, keep_alive


def is_chunked(headers: Mapping[str, str]) -> bool:
    return headers.get("transfer-encoding", "").lower().endswith("chunked")


def has_no_body(method: str, status: int) -> bool:
    return method == "HEAD" or status in (204, 304)


def ends_with_close(method: str, status: int, headers: Mapping[str, str]) -> bool:
    """A body with neither length nor chunks ends when the server closes the connection."""
    framed = is_chunked(headers) or "content-length" in headers
    return not framed and not has_no_body(method, status)


async def read_body(
    reader: asyncio.StreamReader, method: str, status: int, headers: Mapping[str, str]
) -> bytes:
    if has_no_body(method, status):
        return b""
    if is_chunked(headers):  # takes precedence over Content-Length (RFC 9112 §6.3)
        return await read_chunks(reader)
    if "content-length" in headers:
        length = headers["content-length"]
        if not length.isdigit():
            raise HttpError("bad_response", f"bad Content-Length: {length!r}")
        return await reader.readexactly(int(length))
    return await reader.read()  # delimited by the server closing the connection


async def read_chunks(reader: asyncio.StreamReader) -> bytes:
    chunks = []
    while True:
        size_line = await reader.readuntil(b"\r\n")
        size_text = size_line.split(b";", 1)[0].strip()  # drop chunk extensions
        if not size_text or size_text.strip(HEX_DIGITS):
            raise HttpError("bad_response", f"bad chunk size: {size_text[:20]!r}")
        size = int(size_text, 16)
        if size == 0:
            break
        chunks.append(await reader.readexactly(size))
        if await reader.readexactly(2) != b"\r\n":
            raise HttpError("bad_response", "chunk not followed by CRLF")
    while await reader.readuntil(b"\r\n") != b"\r\n":  # trailer fields, ignored
        pass
    return b"".join(chunks)
