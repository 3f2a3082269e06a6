"""A broadcast that the log may have grown: this process's writes, or a NOTIFY from another."""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection


class Changes:
    """Readers of the log subscribe a wake-up; a wake-up only says "look again", so nothing is
    lost if one is missed (the readers poll slowly as well).

    A reader that wants events of a few topics alone (the matchmaking queues' follower, the
    witnessed log's sequencer) subscribes with those ``topics``: a write of this process whose
    events have none of them does not wake it (each read the log once per game command to find
    nothing: ~30 us of a command's CPU for the queues, ~0.5M instructions for the sequencer); any
    change whose topics are unknown (another process's NOTIFY) does."""

    def __init__(self) -> None:
        self._listeners: list[tuple[Callable[[], None], frozenset[str] | None]] = []
        self._lock = threading.Lock()
        # Changes so far, counted before anyone is woken (service/store/readers/tail.py).
        self.heard = 0

    def subscribe(
        self, wake: Callable[[], None], *, topics: Collection[str] | None = None
    ) -> Callable[[], None]:
        """Call ``wake`` on every change from now on (``topics``: only on a change that may
        hold one of them); returns what unsubscribes it."""
        listener = (wake, None if topics is None else frozenset(topics))
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def notify(self, topics: Collection[str] | None = None) -> None:
        """``topics``: the topics of the events written, when this process wrote them and
        knows; None for a change that may hold anything."""
        with self._lock:
            self.heard += 1
            listeners = list(self._listeners)
        for wake, wanted in listeners:
            if topics is None or wanted is None or not wanted.isdisjoint(topics):
                wake()
