"""What every HTTP request passes through on its way to a route and back, in one ASGI layer:
its count and latency (service/http/metrics.py), the rate limits (service/http/limits.py), its
store budget (service/store/budget.py), its caller (service/http/authentication.py), the headers
every answer carries, and gzip for a client that accepts it.

One layer, not one each: every layer is another coroutine and another ``send`` wrapper on every
request; litestar's compression middleware parsed the headers and matched the streams' pattern
on every request, gzip asked for or not, and its authentication middleware built a connection
to read one header.
"""

from __future__ import annotations

import re
import time

from litestar.config.compression import CompressionConfig
from litestar.enums import CompressionEncoding, ScopeType
from litestar.middleware.compression import CompressionMiddleware
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from service.errors import ApiError
from service.http.allowance import Allowance
from service.http.authentication import TokenAuthentication
from service.http.headers import add_headers, encoded, names_of, raw_header
from service.http.limits import UNCOUNTED, Rule, rate_counted
from service.http.metrics import Metrics
from service.http.problems import answer_to
from service.store.budget import budget

# Live streams: compressing one would hold its events back until a block filled, and a stream
# reads for as long as it is open, so it has no store budget.
STREAMS = re.compile(r"^/(games/[^/]+|players/me)/stream$")
COMPRESSION = CompressionConfig(backend="gzip", minimum_size=1024, gzip_compress_level=6)
GZIP_ENCODING = CompressionEncoding.GZIP
GZIP = GZIP_ENCODING.encode()
ACCEPT_ENCODING = b"accept-encoding"


def enveloped(
    app: ASGIApp,
    metrics: Metrics,
    headers: dict[str, str],
    rules: list[Rule],
    allowance: Allowance,
    store_seconds: float,
    authentication: TokenAuthentication,
) -> ASGIApp:
    """ASGI middleware: counts and times every HTTP request (a stream until its answer starts);
    counts it against the rate ``rules`` (429 ``rate_limited`` past an allowance, else the
    tightest rule's RateLimit-* headers on the answer); signs its caller in; gives its store
    work, the sign-in included, ``store_seconds``; gives every answer ``headers`` (refusals made
    before a route is reached too); and gzips an answer of 1 KiB or more, not a stream's, for a
    client that accepts it."""

    given = encoded(headers)
    given_names = names_of(given)
    gzipper = CompressionMiddleware(app, COMPRESSION)

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await app(scope, receive, send)
            return
        started = time.perf_counter()
        counted = await rate_counted(scope, rules, allowance) if rules else UNCOUNTED
        added, names = given, given_names
        if counted.headers:
            added, names = [*given, *counted.headers], given_names | names_of(counted.headers)

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                metrics.answered(scope, message["status"], started)
                add_headers(message, added, names)
            await send(message)

        if counted.refusal is not None:  # answered, not raised (see ``signed_in``)
            await counted.refusal(scope, receive, sending)
            return
        if STREAMS.match(scope["path"]):
            if await signed_in(scope, receive, sending):
                await app(scope, receive, sending)
            return
        answering: Send = sending
        # As litestar's compression middleware reads it: the first Accept-Encoding names gzip.
        if GZIP in (raw_header(scope, ACCEPT_ENCODING) or b""):
            answering = gzipper.create_compression_send_wrapper(sending, GZIP_ENCODING, scope)
        with budget(store_seconds):
            if await signed_in(scope, receive, sending):
                await app(scope, receive, answering)

    async def signed_in(scope: Scope, receive: Receive, sending: Send) -> bool:
        """Signs the caller in; False once its refusal (401) is answered through ``sending``,
        counted and given the common headers like any answer (raised, it would pass them by)."""
        try:
            await authentication.sign_in(scope)
        except ApiError as refusal:
            await answer_to(scope, refusal)(scope, receive, sending)
            return False
        return True

    return middleware
