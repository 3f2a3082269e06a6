"""Section "live": how far behind the log the read models and the log follower run, under load.

In one process with the API's background work running (the inline projector, the follower that
feeds deadlines and live streams), writer threads play 2-seat Open Hand games through the
application. Each event's lag is the time from its insert's return to the moment the projector
(or the follower) had committed (or read) a position at or past its id. The baseline is the same
lag with one command at a time and nothing else going on, measured in the same run.
"""

from __future__ import annotations

import bisect
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from service.application import Cardledger
from service.background.work import BackgroundWork
from service.settings import Settings
from service.tools.bench.figures import Figure
from service.tools.bench.stores import STORES, fresh_store, postgres_available
from service.tools.local_games import keep_playing, register

LOADED_WRITERS = 8


class Clock:
    """When each notification id was committed, and when each reader got past which ids."""

    def __init__(self) -> None:
        self.committed: dict[int, float] = {}
        self.passed: dict[str, list[tuple[float, int]]] = {"projector": [], "follower": []}
        self.lock = threading.Lock()

    def lags(self, reader: str) -> list[float]:
        marks = sorted(self.passed[reader], key=lambda mark: mark[1])
        positions = [position for _, position in marks]
        # The earliest time a position at or past each id was reached.
        earliest, best = [], float("inf")
        for moment, _ in reversed(marks):
            best = min(best, moment)
            earliest.append(best)
        earliest.reverse()
        found = []
        for notification_id, committed in self.committed.items():
            index = bisect.bisect_left(positions, notification_id)
            if index < len(positions):
                found.append(max(0.0, earliest[index] - committed))
        return sorted(found)


@contextmanager
def clocked(ledger: Cardledger, work: BackgroundWork) -> Iterator[Clock]:
    clock = Clock()
    recorder: Any = ledger.store.recorder
    insert, step, follow = recorder.insert_events, ledger.read_models._step, work.follower.step

    def timed_insert(*args: Any, **kwargs: Any) -> Any:
        ids = insert(*args, **kwargs)
        now = time.perf_counter()
        with clock.lock:
            clock.committed.update(dict.fromkeys(ids or (), now))
        return ids

    def timed(reader: str, run: Any, position: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            result = run(*args, **kwargs)
            mark = position()
            if mark:
                with clock.lock:
                    clock.passed[reader].append((time.perf_counter(), mark))
            return result

        return call

    recorder.insert_events = timed_insert
    ledger.read_models._step = timed("projector", step, ledger.read_models.position)  # type: ignore[method-assign]
    work.follower.step = timed("follower", follow, lambda: work.follower.position)  # type: ignore[method-assign]
    try:
        yield clock
    finally:
        recorder.insert_events = insert


def measure(settings: Settings, writers: int, seconds: float, pause: float) -> Clock:
    ledger = Cardledger(settings)
    work = BackgroundWork(ledger)
    try:
        players = [register(ledger, 2) for _ in range(writers)]
        with clocked(ledger, work) as clock:
            work.start()
            stop = threading.Event()
            threads = [
                threading.Thread(
                    target=keep_playing, args=(ledger, who, stop), kwargs={"pause": pause}
                )
                for who in players
            ]
            for thread in threads:
                thread.start()
            time.sleep(seconds)
            stop.set()
            for thread in threads:
                thread.join()
            time.sleep(0.5)  # let both readers pass the last writes
        return clock
    finally:
        work.stop()
        ledger.close()


def quantile(values: list[float], fraction: float) -> float:
    return 1000 * values[min(len(values) - 1, int(fraction * len(values)))] if values else 0.0


def figures(quick: bool) -> list[Figure]:
    seconds = 1.0 if quick else 6.0
    found: list[Figure] = []
    for kind in STORES:
        if kind == "postgres" and not postgres_available():
            continue
        with fresh_store(kind) as settings:
            idle = measure(settings, 1, seconds, pause=0.05)
        with fresh_store(kind) as settings:
            loaded = measure(settings, LOADED_WRITERS, seconds, pause=0.0)
        store = "PostgreSQL" if kind == "postgres" else "SQLite"
        rate = len(loaded.committed) / seconds
        for reader, what in (("projector", "read models"), ("follower", "log follower")):
            busy, calm = loaded.lags(reader), idle.lags(reader)
            for label, fraction in (("p50", 0.5), ("p99", 0.99)):
                found.append(
                    Figure(
                        section="live",
                        name=f"{store}: {what} lag {label}, {LOADED_WRITERS} writers",
                        value=quantile(busy, fraction),
                        unit="ms",
                        baseline="the same with one command every 50 ms",
                        baseline_value=quantile(calm, fraction),
                        higher_is_better=False,
                        note=f"{rate:,.0f} events/s committed",
                    )
                )
    return found
