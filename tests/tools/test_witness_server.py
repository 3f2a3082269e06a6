"""`cardledger witness` is open to the network: a client address gets so many requests a minute
(then 429 with Retry-After), and a connection that does not deliver its request in time is
closed rather than holding a thread."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from projections.transparency.notes import COSIGNATURE, Signer
from service.tools.witness import Allowance, Witness, WitnessState, handler
from tests.support.threads import BOUND, finished

LOG = Signer("example.com/log", Ed25519PrivateKey.generate())
READ_SECONDS = 0.5


@contextlib.contextmanager
def witness_server(tmp_path: Path, per_minute: int) -> Iterator[str]:
    witness = Witness(
        Signer("witness.test", Ed25519PrivateKey.generate(), COSIGNATURE),
        {LOG.name: LOG.verifier()},
        WitnessState(tmp_path / "state.json"),
    )
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), handler(witness, Allowance(per_minute), READ_SECONDS)
    )
    serving = threading.Thread(target=server.serve_forever, daemon=True, name="witness")
    serving.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        finished([serving])


def test_a_client_past_its_rate_is_told_when_to_come_back(tmp_path: Path) -> None:
    with witness_server(tmp_path, per_minute=3) as url:
        answers = [httpx.get(f"{url}/key", timeout=BOUND) for _ in range(3)]
        assert [a.status_code for a in answers] == [200, 200, 200]
        refused = httpx.post(f"{url}/add-checkpoint", content=b"x", timeout=BOUND)
        assert refused.status_code == 429
        assert 1 <= int(refused.headers["Retry-After"]) <= 60


def test_a_connection_that_sends_too_slowly_is_closed(tmp_path: Path) -> None:
    with witness_server(tmp_path, per_minute=0) as url:
        port = int(url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=BOUND) as slow:
            slow.sendall(b"GET /key HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
            assert slow.recv(1024) == b""  # closed by the witness, not by this test's bound
        assert httpx.get(f"{url}/key", timeout=BOUND).status_code == 200  # others still served
