"""Where the store reports its troubles, as they happen, for the service's metrics to count.

Only the store sees a failure's kind (no connection to be had, or an answer lost after a
statement was sent) and the waits it retries by itself, whoever called it: a request or the
background work. A store opened without the service (a tool, a test of the store alone) reports
to nobody.
"""

from __future__ import annotations

from typing import Protocol


class Troubles(Protocol):
    def store_error(self, kind: str) -> None:
        """A call to the store failed (version conflicts are no failure: they are retried)."""

    def retry(self, kind: str) -> None:
        """Work was done again, or waited for, before it could succeed."""


class Unheard:
    def store_error(self, kind: str) -> None:
        pass

    def retry(self, kind: str) -> None:
        pass


UNHEARD = Unheard()
