"""One pattern for every thread that runs beside the requests: a loop of steps on a daemon
thread, woken early on demand, stopped on demand, its health in view.

Written here rather than taken from a library: the runners need a thread (the store's calls
block, and they must go on while the event loop serves), a wake-up that is never lost (a wake
during a step makes the next wait return at once), and a stop that every caller can rely on;
``concurrent.futures`` and ``sched`` give none of the three.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime

import msgspec

log = logging.getLogger("cardledger.workers")
PAUSE_AFTER_FAILURE = 1.0  # seconds: a failing step (the store is away) is not retried hot


class WorkerHealth(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    alive: bool
    steps: int
    failures: int  # steps that raised
    failing: bool  # the latest step raised


class Worker:
    """Runs ``step`` on a thread of its own until stopped.

    ``step`` returns how many seconds it may sleep before its next run, or None for ``idle``
    (None there too: until woken). A step runs again at once when ``wake`` was called while it
    ran or slept. ``gap`` is a pause after every step, so that under load a step takes a batch
    of work rather than a piece per wake-up. ``eager``: the first step runs at start, without
    waiting to be woken.
    """

    def __init__(
        self,
        name: str,
        step: Callable[[], float | None],
        *,
        idle: float | None,
        gap: float = 0.0,
        eager: bool = True,
        finish: Callable[[], None] | None = None,
    ) -> None:
        self.name = name
        self._step = step
        self._idle = idle
        self._gap = gap
        self._finish = finish
        self._woken = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._started = False
        self._start_lock = threading.Lock()
        self._steps = 0
        self._failures = 0
        self._failing = False
        if eager:
            self._woken.set()

    def start(self) -> None:
        """Start the thread (once; later calls do nothing)."""
        if self._started:
            return  # the common case, without the lock (a writer starts its worker per write)
        with self._start_lock:
            if not self._started and not self._stopping.is_set():
                self._started = True
                self._thread.start()

    def wake(self) -> None:
        """Run the step again as soon as the current one (if any) is done. Already woken, it
        need not be again (``Event.set`` takes a lock and notifies): the loop clears the flag
        before each step, so a step still to come reads what was written before this call."""
        if not self._woken.is_set():
            self._woken.set()

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the loop to end after its current step, and wait for it (at most ``timeout``)."""
        self._stopping.set()
        self._woken.set()
        if self._started and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def pause(self, seconds: float) -> bool:
        """Sleep inside a step, ending early if the worker is stopped; True if it was."""
        return self._stopping.wait(seconds)

    def health(self) -> WorkerHealth:
        return WorkerHealth(
            name=self.name,
            alive=self._thread.is_alive(),
            steps=self._steps,
            failures=self._failures,
            failing=self._failing,
        )

    def _run(self) -> None:
        try:
            wait: float | None = self._idle
            while not self._stopping.is_set():
                self._woken.wait(wait)
                if self._stopping.is_set():
                    return
                self._woken.clear()
                wait = self._run_step()
                if self._gap:
                    self._stopping.wait(self._gap)
        finally:
            if self._finish is not None:
                self._finish()

    def _run_step(self) -> float | None:
        try:
            delay = self._step()
        except Exception:
            self._failures += 1
            self._failing = True
            log.warning("%s: a step failed; trying again", self.name, exc_info=True)
            return PAUSE_AFTER_FAILURE
        finally:
            self._steps += 1
        self._failing = False
        return self._idle if delay is None else max(0.0, delay)


def nap_until(soonest: datetime | None, now: datetime, *, longest: float) -> float:
    """Seconds a timer may sleep before ``soonest`` (None: nothing is due), at most
    ``longest``, so that it re-reads the clock at least that often."""
    if soonest is None:
        return longest
    return max(0.0, min(longest, (soonest - now).total_seconds()))
