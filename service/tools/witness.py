"""`cardledger witness`: a C2SP tlog-witness of its own, run apart from the service.

It holds an Ed25519 key (a PEM file, made on first start; its verifier key is printed and
served at ``GET /key``) and, per log origin, the last checkpoint it cosigned, in a JSON state
file replaced atomically (written beside, fsynced, renamed) before it answers: a cosignature is
never given for a checkpoint the witness could forget after a crash. ``POST /add-checkpoint``
follows tlog-witness (``projections/transparency/witness.py``); a refused checkpoint that is
signed by the log but does not extend the one held is kept, both notes, and served at
``GET /conflicts``: evidence of a split view for ``cardledger verify --evidence``.

It is open to the network, so each client address gets so many requests a minute (``--rate``;
answered ``429`` with ``Retry-After`` past it) and a connection must deliver its request within
READ_SECONDS or is closed: a slow or flooding client cannot hold the witness's threads.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter

from projections.transparency.notes import COSIGNATURE, Signer, Verifier
from projections.transparency.witness import (
    SIZE_TYPE,
    AddCheckpoint,
    Refused,
    add_checkpoint,
    refused_conflict,
)
from service.application.log.key import ed25519_key

MAX_BODY = 64 * 1024  # a note and a proof of a tree of 2^63 fit many times over
TEXT = "text/plain; charset=utf-8"
READ_SECONDS = 10.0  # for a connection to deliver a request, or it is closed
RATE = 600  # requests a minute per client address, by default


class Allowance:
    """Requests a minute per client address (0: no limit), counted in this process."""

    def __init__(self, per_minute: int) -> None:
        self._item = RateLimitItemPerMinute(per_minute) if per_minute > 0 else None
        self._limiter = FixedWindowRateLimiter(MemoryStorage())

    def wait(self, address: str) -> int:
        """0 if ``address`` may make a request now (and counts it), or the seconds until it
        may."""
        if self._item is None or self._limiter.hit(self._item, address):
            return 0
        reset, _ = self._limiter.get_window_stats(self._item, address)
        return max(1, math.ceil(reset - time.time()))


class WitnessState:
    """The checkpoint last cosigned per origin and the conflicts seen, kept in ``path``."""

    def __init__(self, path: Path) -> None:
        self._path = path
        found = json.loads(path.read_text()) if path.exists() else {}
        self.held: dict[str, str] = dict(found.get("held", {}))
        self.conflicts: list[dict[str, str]] = list(found.get("conflicts", []))

    def save(self) -> None:
        data = json.dumps({"held": self.held, "conflicts": self.conflicts}, indent=1).encode()
        self._path.parent.mkdir(parents=True, exist_ok=True)
        partial = self._path.with_suffix(".partial")
        with partial.open("wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, self._path)
        directory = os.open(self._path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)  # the rename itself survives a crash
        finally:
            os.close(directory)


class Witness:
    def __init__(self, signer: Signer, logs: dict[str, Verifier], state: WitnessState) -> None:
        self.signer = signer
        self._logs = logs
        self._state = state
        self._lock = threading.Lock()  # one request at a time checks and moves the state

    def add(self, body: str) -> str:
        """The cosignature line; raises Refused."""
        request = AddCheckpoint.parse(body)
        with self._lock:
            origin = request.note.split("\n", 1)[0]
            held = self._state.held.get(origin)
            try:
                checkpoint, line = add_checkpoint(
                    request, held, self._logs, self.signer, int(time.time())
                )
            except Refused as refusal:
                conflict = refused_conflict(held, request, refusal)
                if conflict is not None:
                    self._state.conflicts.append(dataclasses.asdict(conflict))
                    self._state.save()
                raise
            note = request.note
            if held is None or checkpoint.size > _size(held):
                self._state.held[origin] = note
                self._state.save()
            return line

    def conflicts(self) -> list[dict[str, str]]:
        with self._lock:
            return list(self._state.conflicts)


def _size(note: str) -> int:
    return int(note.split("\n", 2)[1])


def handler(
    witness: Witness, allowance: Allowance, read_seconds: float = READ_SECONDS
) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        timeout = read_seconds  # the socket's: a request not delivered in time closes it

        def do_POST(self) -> None:
            if self._limited():
                return
            if self.path != "/add-checkpoint":
                self._answer(404, TEXT, "no such path\n")
                return
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_BODY:
                self._answer(400, TEXT, "a request body of at most 64 KiB\n")
                return
            try:
                line = witness.add(self.rfile.read(length).decode())
            except UnicodeDecodeError:
                self._answer(400, TEXT, "a request is UTF-8 text\n")
            except Refused as refusal:
                if refusal.held is not None:
                    self._answer(refusal.status, SIZE_TYPE, f"{refusal.held}\n")
                else:
                    self._answer(refusal.status, TEXT, refusal.reason + "\n")
            else:
                self._answer(200, TEXT, line)

        def do_GET(self) -> None:
            if self._limited():
                return
            if self.path == "/key":
                self._answer(200, TEXT, witness.signer.verifier().text() + "\n")
            elif self.path == "/conflicts":
                self._answer(200, "application/json", json.dumps(witness.conflicts()))
            else:
                self._answer(404, TEXT, "no such path\n")

        def _limited(self) -> bool:
            wait = allowance.wait(self.client_address[0])
            if wait:
                self._answer(429, TEXT, "too many requests\n", {"Retry-After": str(wait)})
            return bool(wait)

        def _answer(
            self, status: int, media: str, body: str, headers: dict[str, str] | None = None
        ) -> None:
            data = body.encode()
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Type", media)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            sys.stderr.write(f"witness: {format % args}\n")

    return Handler


def run(args: argparse.Namespace) -> int:
    data_dir = Path(args.data_dir)
    key, made = ed25519_key(Path(args.key) if args.key else data_dir / "witness-key.pem")
    signer = Signer(args.name, key, COSIGNATURE)
    try:
        logs = {verifier.name: verifier for verifier in map(_log_key, args.log_key)}
    except ValueError as error:
        print(f"witness: {error}", file=sys.stderr)
        return 2
    state = WitnessState(Path(args.state) if args.state else data_dir / "witness-state.json")
    witness = Witness(signer, logs, state)
    server = ThreadingHTTPServer((args.host, args.port), handler(witness, Allowance(args.rate)))
    how = "made" if made else "using"
    print(f"witness: {how} key; verifier key {signer.verifier().text()}", flush=True)
    print(f"witness: listening on http://{args.host}:{server.server_port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _log_key(text: str) -> Verifier:
    path = Path(text)
    return Verifier.parse(path.read_text() if path.is_file() else text)


def add_parser(commands: Any) -> None:
    witness = commands.add_parser(
        "witness", help="cosign the witnessed log's checkpoints (C2SP tlog-witness)"
    )
    witness.add_argument(
        "--name", default="witness.local", help="the witness key's name (default: %(default)s)"
    )
    witness.add_argument(
        "--log-key",
        action="append",
        default=[],
        required=True,
        metavar="KEY",
        help="a log's verifier key (GET /log/key) or a file holding it (repeatable)",
    )
    witness.add_argument(
        "--data-dir",
        default="var/witness",
        help="where the key and state live unless named (default: %(default)s)",
    )
    witness.add_argument(
        "--key",
        help="the witness's PEM key file, made if missing (default: witness-key.pem in --data-dir)",
    )
    witness.add_argument(
        "--state", help="the witness's state file (default: witness-state.json in --data-dir)"
    )
    witness.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default: %(default)s)"
    )
    witness.add_argument(
        "--port",
        type=int,
        default=8100,
        help="the TCP port, 0 for any free one (default: %(default)s)",
    )
    witness.add_argument(
        "--rate",
        type=int,
        default=RATE,
        help="requests a minute per client address, 0 for no limit (default: %(default)s)",
    )
    witness.set_defaults(run=run)
