"""A broadcast that the log may have grown: this process's writes, or a NOTIFY from another."""

from __future__ import annotations

import threading


class Changes:
    """Followers of the log wait on this instead of polling fast; a wake-up only says "look
    again", so nothing is lost if one is missed (they poll slowly as well)."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._count = 0

    def notify(self) -> None:
        with self._condition:
            self._count += 1
            self._condition.notify_all()

    @property
    def count(self) -> int:
        return self._count

    def wait(self, seen: int, timeout: float) -> int:
        """Until a change after ``seen`` (or ``timeout`` seconds); returns the latest count."""
        with self._condition:
            self._condition.wait_for(lambda: self._count != seen, timeout)
            return self._count
