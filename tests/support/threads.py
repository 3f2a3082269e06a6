"""Threads and waits in tests that hold on a loaded machine and never hang the run.

A test waits for a condition, never for a fixed time, and with a bound far above what an idle
machine needs (a machine running several suites at once is many times slower): the bound only
turns a hang into a failure. Threads a test starts are daemons, so one left blocked cannot hold
the interpreter at exit, and the test fails, naming them, if they have not ended in time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

BOUND = 120.0  # seconds: for what takes a second or two on an idle machine


def wait_until(condition: Callable[[], object], what: str, *, within: float = BOUND) -> None:
    """Until ``condition()`` is true; fails saying ``what`` did not happen within the bound."""
    give_up = time.monotonic() + within
    while not condition():
        assert time.monotonic() < give_up, f"{what}: not within {within:.0f} s"
        time.sleep(0.05)


def finished(threads: Iterable[threading.Thread], *, within: float = BOUND) -> None:
    """Join ``threads`` by one deadline; fails naming any still running then."""
    threads = list(threads)
    give_up = time.monotonic() + within
    for thread in threads:
        thread.join(max(0.0, give_up - time.monotonic()))
    running = [thread.name for thread in threads if thread.is_alive()]
    assert not running, f"still running after {within:.0f} s: {', '.join(running)}"


def at_once(calls: Sequence[Callable[[], Any]], *, within: float = BOUND) -> list[Any]:
    """Every call started together (a barrier), each on a thread of its own; their results in
    order. A call that raises raises here, once every thread has ended."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait(within)
            results[index] = calls[index]()
        except BaseException as error:
            errors.append(error)
            barrier.abort()  # the others stop waiting for this one

    threads = [
        threading.Thread(target=run, args=(index,), name=f"call-{index}", daemon=True)
        for index in range(len(calls))
    ]
    for thread in threads:
        thread.start()
    finished(threads, within=within)
    if errors:
        raise errors[0]
    return results
