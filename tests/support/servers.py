"""Real `cardledger serve` processes on 127.0.0.1 for end-to-end tests, and the way every
test starts a process: its output in a log file (shown when it fails), in a process group of
its own (stopping it reaches a supervisor's workers too), and ending with the test run however
the run ends (even killed: see service/lifetime.py)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import httpx

from service.lifetime import end_with_parent
from service.settings import Settings
from tests.support.threads import BOUND, finished, wait_until

STOP_GRACE = 10  # seconds a process has to stop on SIGTERM before it and its group are killed
START_WITHIN = 60  # seconds for a server to answer /ready: generous, for a loaded machine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServerProcess(NamedTuple):
    base: str  # its URL
    process: subprocess.Popen[bytes]  # `cardledger serve`: with workers, their supervisor
    log: Path  # its output


@contextmanager
def running_server(settings: Settings, data_dir: Path, *, workers: int = 1) -> Iterator[str]:
    """A server process (``workers`` of them behind one port) on a free port, using the
    settings' store, ready; yields its base URL. Its output goes to ``data_dir``/server-PORT.log
    and, if the test fails, to the test's report."""
    with server_process(settings, data_dir, workers=workers) as server:
        wait_until_ready(server.base, server.process)
        yield server.base


@contextmanager
def server_process(
    settings: Settings, data_dir: Path, *, workers: int = 1, options: Sequence[str] = ()
) -> Iterator[ServerProcess]:
    """`cardledger serve` (with ``options``) started, perhaps not ready yet; stopped at the end."""
    port = free_port()
    # Tests play faster than any client would: limits stay off unless a test turns them on.
    env = {"CARDLEDGER_LIMITS": "off", **os.environ, "CARDLEDGER_DATA_DIR": str(data_dir)}
    env.pop("CARDLEDGER_DATABASE_URL", None)
    if settings.database_url:
        env["CARDLEDGER_DATABASE_URL"] = settings.database_url
    if settings.admin_token:
        env["CARDLEDGER_ADMIN_TOKEN"] = settings.admin_token
    command = [
        *(sys.executable, "-m", "service.tools.cli", "serve", "--host", "127.0.0.1"),
        *("--port", str(port), "--workers", str(workers), *options),
    ]
    base = f"http://127.0.0.1:{port}"
    log = data_dir / f"server-{port}.log"
    process = start_process(command, env=env, log=log)
    failed = True
    try:
        yield ServerProcess(base, process, log)
        failed = False
    finally:
        stop_process(process)
        if failed:  # pytest shows a failed test's stderr: the server's side of the story
            sys.stderr.write(f"output of the server at {base}:\n{log.read_text(errors='replace')}")


def worker_pids(supervisor: int) -> list[int]:
    """The worker processes uvicorn's supervisor ``supervisor`` has now (Linux's /proc)."""
    children = Path(f"/proc/{supervisor}/task/{supervisor}/children").read_text().split()
    workers = []
    for child in children:
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                workers.append(int(child))  # not multiprocessing's resource tracker
    return workers


def start_process(
    command: Sequence[str], *, env: dict[str, str], log: Path
) -> subprocess.Popen[bytes]:
    """``command`` as a child process: stdout and stderr appended to ``log``, a process group
    of its own, SIGKILLed by the kernel if this process dies first. Call it from the thread
    that stops it (the kernel watches the thread that started the child)."""
    parent = os.getpid()
    with log.open("ab") as output:
        return subprocess.Popen(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            process_group=0,
            preexec_fn=lambda: end_with_parent(signal.SIGKILL, parent),
        )


def stop_process(process: subprocess.Popen[bytes], grace: float = STOP_GRACE) -> None:
    """SIGTERM; after ``grace`` seconds, SIGKILL to its whole process group (a supervisor's
    workers included), whether or not the process itself has ended by then."""
    if process.poll() is None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=grace)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # what is left of the group: stuck workers
    process.wait(timeout=grace)


def wait_until_ready(base: str, process: subprocess.Popen[bytes]) -> None:
    """Until the server answers /ready; fails if it ends or never does."""
    give_up = time.monotonic() + START_WITHIN
    while True:
        try:
            if httpx.get(f"{base}/ready", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > give_up:
            what = "ended" if process.poll() is not None else f"not ready in {START_WITHIN} s"
            raise RuntimeError(f"server {what} (its output follows the test's traceback)")
        time.sleep(0.1)


@contextmanager
def stream_held_open(url: str, headers: dict[str, str]) -> Iterator[None]:
    """A live stream at ``url`` held open (by a thread) until the block ends; fails if it is
    not answered 200. Then waits until the server gives its slot back: a new stream opens."""
    opened, done = threading.Event(), threading.Event()

    def follow() -> None:
        with httpx.stream("GET", url, headers=headers, timeout=BOUND) as held:
            assert held.status_code == 200, held.read()
            opened.set()
            done.wait(BOUND)

    holder = threading.Thread(target=follow, daemon=True)
    holder.start()
    try:
        assert opened.wait(BOUND), f"the stream at {url} did not open"
        yield
    finally:
        done.set()
        finished([holder])

    def slot_free() -> bool:
        with httpx.stream("GET", url, headers=headers, timeout=BOUND) as again:
            return again.status_code == 200

    wait_until(slot_free, "the stream's slot came back")
