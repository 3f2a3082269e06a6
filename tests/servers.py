"""Real `cardledger serve` processes on 127.0.0.1 for end-to-end tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from service.settings import Settings


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def running_server(settings: Settings, data_dir: Path, *, workers: int = 1) -> Iterator[str]:
    """A server process (``workers`` of them behind one port) on a free port, using the
    settings' store; yields its base URL."""
    port = free_port()
    # Tests play faster than any client would: limits stay off unless a test turns them on.
    env = {"CARDLEDGER_LIMITS": "off", **os.environ, "CARDLEDGER_DATA_DIR": str(data_dir)}
    env.pop("CARDLEDGER_DATABASE_URL", None)
    if settings.database_url:
        env["CARDLEDGER_DATABASE_URL"] = settings.database_url
    if settings.admin_token:
        env["CARDLEDGER_ADMIN_TOKEN"] = settings.admin_token
    command = [
        sys.executable,
        "-m",
        "service.tools.cli",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
    ]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/ready", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                output = process.stderr.read().decode() if process.stderr else ""
                raise RuntimeError(f"server did not start: {output}")
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)
