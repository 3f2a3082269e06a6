"""The newest stretch of the log, read once per process for all its background readers.

After every command the log follower, the read models' projector and the witnessed log's
sequencer each read the command's events; here the first of them reads them from the database
and the others are answered from memory, decoded once. Hand-written: the answers must be exactly
those of the database, which no caching library knows how to judge.

What is kept: every row of its topics with a position in ``(low, high]``, in order. Those rows
are final: a read only returns rows below the horizon (on PostgreSQL every transaction below it
has ended; on SQLite the one writer at a time commits in order), and it returned every row of
these topics in its range, so no row can appear there later. A reader's question (``after``,
``limit``, topics) is answered from memory when the kept range holds ``limit`` of its rows past
``after`` (the database would return the same rows), or when fewer are kept but the last read
found nothing past ``high`` and is *fresh* for this reader: no write has been heard of since it
started (``Changes.heard``) and it has not told this reader "nothing more" already. So a reader
woken by a write, or polling, always gets an answer read after its wake-up and after its own
previous read: a write it has not been told of, it will be (or its next poll reads again).
Otherwise one read of the database past ``high`` extends the range, then answers.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Callable, Collection, Hashable, Sequence
from typing import Any

from eventsourcing.persistence import Notification

from service.store.readers.changes import Changes

FILL = 1000  # rows a read of the database asks for: at least any reader's batch
KEPT = 2048  # rows kept at least (the sequencer's position trails by its topics' spacing)


class Tail:
    """Thread-safe; ``select(after, limit, topics)`` reads the database in position order,
    every topic when ``topics`` is empty."""

    def __init__(
        self,
        select: Callable[[int, int, tuple[str, ...]], Sequence[Notification]],
        topics: Collection[str],
        changes: Changes,
    ) -> None:
        self._select = select
        self.topics = frozenset(topics)
        self._changes = changes
        self._lock = threading.Lock()
        self._known = False  # nothing until a reader's first question
        self._low = self._high = 0
        self._ids: list[int] = []
        self._rows: list[Notification] = []
        self._exhausted = False  # the last read found fewer rows than it asked for
        self._heard = -1  # Changes.heard when the last read started
        self._told: set[Hashable] = set()  # readers told "nothing more" by the last read
        self._decoded: dict[int, Any] = {}
        self.reads = 0  # of the database, for tests and benchmarks

    def read(
        self, reader: Hashable, after: int, limit: int, topics: Collection[str]
    ) -> list[Notification] | None:
        """What the database would answer now: the first ``limit`` rows of ``topics`` past
        ``after``; None when the question is not for the kept range (a reader behind it, or
        topics not kept), for the caller to ask the database itself."""
        wanted = frozenset(topics)
        if not wanted <= self.topics:
            return None
        with self._lock:
            if not self._known:
                self._restart(after)
            extended = False  # by this question: its read started after it was asked
            while True:
                if after < self._low:
                    return None  # the rows past it were dropped to keep the bound
                found: list[Notification] = []
                if after <= self._high:
                    found = self._kept(after, limit, wanted)
                    if len(found) == limit:
                        return found  # rows below the horizon: the database holds just these
                elif extended and not self._exhausted:
                    self._restart(after)  # far ahead of the kept rows: keep from there
                    continue
                if self._exhausted and (extended or self._fresh_for(reader)):
                    self._told.add(reader)
                    return found
                self._extend()
                extended = True

    def decoded(self, notification: Notification, decode: Callable[[Notification], Any]) -> Any:
        """``decode(notification)``, once for a row kept here (its events are immutable)."""
        known = self._decoded.get(notification.id)
        if known is None:
            known = decode(notification)
            # Not while a read holds the lock: a request's decode must not wait on the database.
            if self._lock.acquire(blocking=False):
                try:
                    if self._known and self._low < notification.id <= self._high:
                        self._decoded[notification.id] = known
                finally:
                    self._lock.release()
        return known

    def _fresh_for(self, reader: Hashable) -> bool:
        return self._heard == self._changes.heard and reader not in self._told

    def _kept(self, after: int, limit: int, wanted: frozenset[str]) -> list[Notification]:
        start = bisect.bisect_right(self._ids, after)
        if wanted == self.topics:
            return self._rows[start : start + limit]
        found = []
        for row in self._rows[start:]:
            if row.topic in wanted:
                found.append(row)
                if len(found) == limit:
                    break
        return found

    def _restart(self, after: int) -> None:
        self._known = True
        self._low = self._high = after
        self._ids, self._rows = [], []
        self._decoded.clear()
        self._exhausted = False

    def _extend(self) -> None:
        """Read past ``high`` once: the heard count first, so a write heard of during the read
        leaves it stale. Every topic is read and the others dropped here: the topics written
        into the statement (~90) made SQLite build a lookup table of them on every read, which
        doubled its cost, and the log holds few rows of other topics."""
        heard = self._changes.heard
        read = self._select(self._high, FILL, ())
        self.reads += 1
        self._heard = heard
        self._told.clear()
        self._exhausted = len(read) < FILL
        if read:
            rows = [row for row in read if row.topic in self.topics]
            self._rows.extend(rows)
            self._ids.extend(row.id for row in rows)
            self._high = read[-1].id
        if len(self._rows) > KEPT + FILL:
            cut = len(self._rows) - KEPT
            self._low = self._ids[cut - 1]
            for dropped in self._ids[:cut]:
                self._decoded.pop(dropped, None)
            del self._ids[:cut], self._rows[:cut]
