"""Appends every game's creation and end to the witnessed log, in the notification log's order,
and signs a checkpoint at least every second while entries arrive.

One writer: the process holding the "sequencer" leader lock runs ``catch_up``
(``service/background/sequencer.py``). A single writer following the store-ordered notification
log gives the entries one order that every process and every rebuild agrees on, and keeps the
command path free of any work for the log (a store-ordered sequence in each command's
transaction would add a write and a contended counter to every game's creation). The lock only
saves work: correctness rests on the compare-and-set of the sequenced position and size in the
batch's own transaction (``LogTables.move``), so even two sequencers at once append each entry
exactly once, with no gap.

Entries come from the events themselves (a game's creation carries its seed commitment; its end
carries the final version and chain head): no game is ever loaded.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from domain.aggregate import Recorded
from domain.events import GameCancelled, GameCreated, GameFinished, topic
from projections.transparency.entries import Entry, GameCreatedEntry, GameEndedEntry
from projections.transparency.frontier import Frontier, Node
from projections.transparency.merkle import HASH_SIZE
from projections.transparency.notes import Checkpoint, Signer
from service.store.event_store import Store
from service.store.log_tables import LogTables, Sequenced, StoredCheckpoint

BATCH = 1000
CHECKPOINT_SECONDS = 1.0  # while entries arrive, a new checkpoint at least this often
TOPICS = tuple(topic(kind) for kind in (GameCreated, GameFinished, GameCancelled))


class _Stale(Exception):
    """Another sequencer moved the log first; read its state again."""


@dataclass
class _Pending:
    entries: list[tuple[int, str, bytes]] = field(default_factory=list)  # index, game, bytes
    nodes: list[Node] = field(default_factory=list)
    after: Sequenced | None = None  # how far they reach


def entry_of(event: Recorded) -> Entry:
    payload = event.payload
    if isinstance(payload, GameCreated):
        return GameCreatedEntry(event.originator_id, payload.variant, payload.seed_commitment)
    status = "finished" if isinstance(payload, GameFinished) else "cancelled"
    return GameEndedEntry(event.originator_id, status, event.originator_version, event.hash)


class LogSequencer:
    def __init__(
        self,
        store: Store,
        tables: LogTables,
        signer: Signer,
        clock: Callable[[], datetime],
        *,
        interval: float = CHECKPOINT_SECONDS,
    ) -> None:
        self._store = store
        self._tables = tables
        self._signer = signer
        self._clock = clock
        self._interval = interval
        self._lock = threading.Lock()
        self._sequenced: Sequenced | None = None  # as the store holds it
        self._pending = _Pending()  # read, appended to the frontier, not yet written
        self._frontier = Frontier(0, {})
        self._signed_size = -1  # no checkpoint yet: even the empty tree gets one
        self._signed_at = float("-inf")  # monotonic; unknown after a start: sign when due

    def catch_up(self) -> float | None:
        """Sequence everything the notification log holds; the seconds until a checkpoint falls
        due for entries not yet signed (None: all are)."""
        with self._lock:
            while True:
                try:
                    read = self._step()
                except _Stale:
                    self._forget()
                    continue
                except BaseException:
                    self._forget()  # the frontier moved on in memory: read it again
                    raise
                if read < BATCH:
                    return self._due()

    def _forget(self) -> None:
        self._sequenced = None
        self._pending = _Pending()

    def _load(self) -> Sequenced:
        sequenced = self._tables.sequenced()
        self._frontier = Frontier.of(self._node, sequenced.size)
        latest = self._tables.latest_checkpoint()
        self._signed_size = -1 if latest is None else latest.size
        self._sequenced = sequenced
        self._pending = _Pending(after=sequenced)
        return sequenced

    def _node(self, level: int, index: int) -> bytes:
        found = self._tables.nodes(level, index, 1)
        if len(found) != 1 or len(found[0]) != HASH_SIZE:
            raise LookupError(f"the log lacks node {level}/{index}")
        return found[0]

    def _step(self) -> int:
        """Read a batch into the pending entries; write them (one transaction) when a
        checkpoint falls due or they fill a batch. Writing only with checkpoints keeps the log's
        commits to about one a second under load: on SQLite every commit is an fsync the
        command path waits behind."""
        before = self._sequenced or self._load()
        pending = self._pending
        read_to = pending.after or before
        batch = self._store.game_notifications(read_to.position, BATCH, TOPICS, reader=self)
        for notification in batch:
            event = self._store.decode(notification)
            entry = entry_of(event).encode()
            pending.entries.append((self._frontier.size, str(event.originator_id), entry))
            pending.nodes += self._frontier.append([entry])
        after = Sequenced(batch[-1].id if batch else read_to.position, self._frontier.size)
        pending.after = after
        checkpoint = self._checkpoint() if self._due() == 0 else None
        if checkpoint is None and len(pending.entries) < BATCH:
            return len(batch)

        def write(cursor: Any) -> None:
            if not self._tables.move(cursor, before, after):
                raise _Stale
            self._tables.append(cursor, pending.entries, pending.nodes)
            if checkpoint is not None:
                self._tables.keep_checkpoint(cursor, checkpoint)

        self._store.transact(write)
        self._sequenced = after
        self._pending = _Pending(after=after)
        if checkpoint is not None:
            self._signed_size, self._signed_at = checkpoint.size, time.monotonic()
        return len(batch)

    def _due(self) -> float | None:
        if self._frontier.size == self._signed_size:
            return None
        return max(0.0, self._signed_at + self._interval - time.monotonic())

    def _checkpoint(self) -> StoredCheckpoint:
        checkpoint = Checkpoint(self._signer.name, self._frontier.size, self._frontier.root())
        note = checkpoint.text() + "\n" + self._signer.sign(checkpoint)
        return StoredCheckpoint(checkpoint.size, note, self._clock().isoformat())
