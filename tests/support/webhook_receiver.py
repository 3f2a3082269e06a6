"""A webhook receiver on 127.0.0.1 for tests: it counts and keeps every delivery, verifies its
signature, and can be told to fail, or to hold its answer to a delivery until released. And a
receiver that trickles its answer, a byte at a time."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from service.application.messaging.webhook_targets import verify
from tests.support.threads import BOUND

TOLERANCE = 300  # seconds: what the documentation tells receivers to accept


class Delivery:
    def __init__(self, headers: dict[str, str], body: bytes, key: str | None) -> None:
        self.at = time.monotonic()
        self.headers = headers
        self.body = body
        self.message: dict[str, Any] = json.loads(body)
        self.id = headers.get("webhook-id", "")
        self.signed = key is not None and verify(
            key,
            headers.get("webhook-timestamp", ""),
            body,
            headers.get("webhook-signature", ""),
            now=int(time.time()),
            tolerance=TOLERANCE,
        )


class Receiver:
    """``status``: what to answer (a callable of the delivery's number, from 1); ``hold``: the
    number of a delivery that waits, unanswered, until ``released`` is set (``holding`` is set
    once it waits)."""

    def __init__(self) -> None:
        self.key: str | None = None
        self.deliveries: list[Delivery] = []
        self.status: Callable[[int], int] = lambda number: 200
        self.hold: int | None = None
        self.redirect: str | None = None  # sent as Location with every answer
        self.holding = threading.Event()
        self.released = threading.Event()
        self.lock = threading.Lock()
        self.url = ""

    @property
    def ids(self) -> list[str]:
        with self.lock:
            return [delivery.id for delivery in self.deliveries]

    def answered(self, delivery: Delivery) -> int:
        with self.lock:
            self.deliveries.append(delivery)
            number = len(self.deliveries)
        if number == self.hold:
            self.holding.set()
            self.released.wait(BOUND)
        return self.status(number)


@contextmanager
def receiving() -> Iterator[Receiver]:
    """A receiver serving on a free port of 127.0.0.1 until the block ends."""
    receiver = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            headers = {name.lower(): value for name, value in self.headers.items()}
            status = receiver.answered(Delivery(headers, body, receiver.key))
            try:
                self.send_response(status)
                if receiver.redirect is not None:
                    self.send_header("Location", receiver.redirect)
                self.send_header("Content-Length", "0")
                self.end_headers()
            except OSError:
                pass  # the sender is gone (killed mid-delivery): nobody hears this answer

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, daemon=True, name="receiver")
    thread.start()
    try:
        yield receiver
    finally:
        receiver.released.set()
        server.shutdown()
        server.server_close()
        thread.join(BOUND)


# A whole answer, 204 and all, that takes TRICKLED_BYTES pauses to send.
TRICKLED_ANSWER = (
    b"HTTP/1.1 204 No Content\r\nX-Pad: " + b"." * 160 + b"\r\nContent-Length: 0\r\n\r\n"
)


class Trickler:
    """Reads each delivery's request, then sends a complete 204 one byte every ``pause``
    seconds; ``sent`` has, for each delivery the sender hung up on, the bytes it got out."""

    def __init__(self, pause: float) -> None:
        self.pause = pause
        self.url = ""
        self.sent: list[int] = []
        self.stopped = threading.Event()

    def answer(self, connection: socket.socket) -> None:
        request = b""
        while b"\r\n\r\n" not in request:  # the body, a few hundred bytes, is not awaited
            chunk = connection.recv(65536)
            if not chunk:
                return
            request += chunk
        for sent in range(len(TRICKLED_ANSWER)):
            if self.stopped.wait(self.pause):
                return
            try:
                connection.sendall(TRICKLED_ANSWER[sent : sent + 1])
            except OSError:  # the sender hung up: a send after its close fails
                self.sent.append(sent)
                return

    def serve(self, listener: socket.socket) -> None:
        listener.settimeout(0.05)  # to see ``stopped`` between connections
        while not self.stopped.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            with connection:
                connection.settimeout(BOUND)
                self.answer(connection)


@contextmanager
def trickling(pause: float) -> Iterator[Trickler]:
    """A trickling receiver on a free port of 127.0.0.1 until the block ends."""
    trickler = Trickler(pause)
    listener = socket.create_server(("127.0.0.1", 0))
    trickler.url = f"http://127.0.0.1:{listener.getsockname()[1]}/hook"
    thread = threading.Thread(target=trickler.serve, args=(listener,), daemon=True, name="trickler")
    thread.start()
    try:
        yield trickler
    finally:
        trickler.stopped.set()
        thread.join(BOUND)
        listener.close()
