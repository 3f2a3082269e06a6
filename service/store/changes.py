"""A broadcast that the log may have grown: this process's writes, or a NOTIFY from another."""

from __future__ import annotations

import threading
from collections.abc import Callable


class Changes:
    """Readers of the log subscribe a wake-up; a wake-up only says "look again", so nothing is
    lost if one is missed (the readers poll slowly as well)."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def subscribe(self, wake: Callable[[], None]) -> Callable[[], None]:
        """Call ``wake`` on every change from now on; returns what unsubscribes it."""
        with self._lock:
            self._listeners.append(wake)

        def unsubscribe() -> None:
            with self._lock:
                if wake in self._listeners:
                    self._listeners.remove(wake)

        return unsubscribe

    def notify(self) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for wake in listeners:
            wake()
