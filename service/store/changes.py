"""A broadcast that the log may have grown: this process's writes, or a NOTIFY from another."""

from __future__ import annotations

import threading
from collections.abc import Callable


class Changes:
    """Readers of the log subscribe a wake-up; a wake-up only says "look again", so nothing is
    lost if one is missed (the readers poll slowly as well).

    A reader of the matchmaking queues alone subscribes with ``queues=True``: a write this
    process knows holds no queue event does not wake it (it read the log once per game command,
    ~30 us of a command's CPU, to find nothing); any other change does."""

    def __init__(self) -> None:
        self._listeners: list[tuple[Callable[[], None], bool]] = []
        self._lock = threading.Lock()

    def subscribe(self, wake: Callable[[], None], *, queues: bool = False) -> Callable[[], None]:
        """Call ``wake`` on every change from now on (``queues``: not on a write known to
        hold no queue event); returns what unsubscribes it."""
        listener = (wake, queues)
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def notify(self, *, queued: bool = True) -> None:
        """``queued``: whether the change may hold queue events (False only for a write of this
        process known to hold none)."""
        with self._lock:
            listeners = list(self._listeners)
        for wake, queues in listeners:
            if queued or not queues:
                wake()
