"""Readers tailing the log while many writers insert at once, on PostgreSQL: every reader must
see every committed event, each once, in order. A reader that passes over an id whose writer
commits later has lost that event for good (CI's run of 2026-12-04 did: a writer caught between
taking its transaction id and the lock that shows it in pg_locks; service/store/postgres/
horizon.py). The gap is narrow, so the check runs writers in several stores for a while and
counts every event."""

from __future__ import annotations

import itertools
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from eventsourcing.persistence import StoredEvent

from service.settings import Settings
from service.store.event_store import Store
from tests.support.threads import finished

WRITERS = 8
TOPIC = "tailed"


@dataclass(frozen=True)
class Outcome:
    committed: int
    readers: int
    missed: int  # events some reader passed over, summed over readers
    out_of_order: int  # readers that saw an id after a higher one

    def ok(self) -> bool:
        return self.committed > 0 and self.missed == self.out_of_order == 0

    def figure(self) -> str:
        return (
            f"{self.committed} events by {WRITERS} writers, {self.readers} readers:"
            f" {self.missed} missed, {self.out_of_order} out of order"
        )


STORES = 3  # each with its own connections, as processes would have


def run(settings: Settings, seconds: float) -> Outcome:
    """``STORES`` stores on ``settings``' database, each with writers and one reader, for
    ``seconds``; then the readers catch up."""
    stores = [Store(env=settings.store_env()) for _ in range(STORES)]
    try:
        return _race(stores, seconds)
    finally:
        for store in stores:
            store.close()


def _race(stores: Sequence[Store], seconds: float) -> Outcome:
    writing, readers_may_end = threading.Event(), threading.Event()
    writing.set()
    committed: list[int] = []
    lock = threading.Lock()

    def write(store: Store) -> None:
        game = uuid.uuid4()
        for version in itertools.count(1):
            if not writing.is_set():
                return
            ids = store.recorder.insert_events([StoredEvent(game, version, TOPIC, b"{}")])
            with lock:
                committed.extend(ids or [])

    def read(store: Store, seen: list[int]) -> None:
        after = 0
        while True:
            may_end = readers_may_end.is_set()  # before the read: that read comes after all
            page = store.recorder.select_notifications(
                after, 1000, topics=(TOPIC,), inclusive_of_start=False
            )
            seen += [n.id for n in page]
            after = seen[-1] if seen else after
            if may_end and not page:
                return

    seen: list[list[int]] = [[] for _ in stores]
    writers = [
        threading.Thread(target=write, args=(stores[i % len(stores)],), daemon=True)
        for i in range(WRITERS)
    ]
    readers = [
        threading.Thread(target=read, args=(store, into), daemon=True)
        for store, into in zip(stores, seen, strict=True)
    ]
    for thread in writers + readers:
        thread.start()
    try:
        time.sleep(seconds)
    finally:
        writing.clear()
        finished(writers)
        readers_may_end.set()
        finished(readers)
    everything = set(committed)
    return Outcome(
        committed=len(everything),
        readers=len(stores),
        missed=sum(len(everything - set(into)) for into in seen),
        out_of_order=sum(into != sorted(set(into)) for into in seen),
    )
