"""The event store: the eventsourcing Application over one table of every game and record."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import InfrastructureFactory, Mapper, Notification

from domain.aggregate import Recorded
from domain.matchmaking.entries import QUEUE_EVENTS, queue_topic
from domain.matchmaking.queue import Queued
from domain.matchmaking.rematch import REMATCH_EVENTS, Rematched, rematch_id, rematch_topic
from domain.variants import event_types
from service.store.mapper import EnvelopeMapper
from service.store.postgres import HorizonRecorder, LedgerPostgresFactory, schema_lock
from service.store.postgres.listener import PostgresListener
from service.store.readers.changes import Changes
from service.store.readers.tail import Tail
from service.store.sqlite import BatchingRecorder, LedgerSQLiteFactory
from service.store.troubles import Troubles

T = TypeVar("T")
QUEUE_TOPICS = frozenset(queue_topic(kind) for kind in QUEUE_EVENTS)


class Store(Application[UUID]):
    """One table (SQLite file or PostgreSQL) for all games, written without a table lock."""

    name = "cardledger"

    def __init__(self, env: Any = None) -> None:
        super().__init__(env=env)
        self.changes = Changes()
        self._game_topics = tuple(event_types())
        rematches = tuple(rematch_topic(kind) for kind in REMATCH_EVENTS)
        self._projected_topics = (*self._game_topics, *rematches)
        # The background readers' (follower, read models, sequencer) topics: one read for all.
        self.tail = Tail(self._select, self._projected_topics, self.changes)

    def construct_factory(self, env: Any) -> InfrastructureFactory[Any]:
        module = env.get("PERSISTENCE_MODULE")
        if module == "eventsourcing.postgres":
            return LedgerPostgresFactory(env)
        if module == "eventsourcing.sqlite":
            return LedgerSQLiteFactory(env)
        raise ValueError(f"unsupported store {module!r}")

    def construct_mapper(self) -> Mapper[UUID]:
        return EnvelopeMapper()

    def save(self, *objs: Any, **kwargs: Any) -> list[Any]:
        """Every pending event of the given aggregates and records in one insert: the library's
        save without its runtime protocol checks (a tenth of a command's CPU) or its
        snapshotting and notification hooks, which we do not use. The log's readers in this
        process are woken at once."""
        stored = [
            self.mapper.to_stored_event(event) for obj in objs for event in obj.collect_events()
        ]
        self.recorder.insert_events(stored)
        self.changes.notify({event.topic for event in stored})
        return []

    def events_between(self, game_id: UUID, after: int, until: int) -> list[Recorded]:
        """A game's events after version ``after``, up to ``until`` included."""
        if until <= after:
            return []
        return list(self.events.get(game_id, gt=after, lte=until))  # type: ignore[arg-type]

    @property
    def writer(self) -> HorizonRecorder | BatchingRecorder:
        recorder = self.recorder
        assert isinstance(recorder, HorizonRecorder | BatchingRecorder)
        return recorder

    def report_to(self, troubles: Troubles) -> None:
        """From now on, tell ``troubles`` of failed calls and of waits retried."""
        recorder = self.writer
        if isinstance(recorder, HorizonRecorder):
            recorder.troubles = troubles
        else:
            recorder.writer.troubles = troubles

    def listener(self, database_url: str) -> PostgresListener | None:
        """A listener that wakes this store's readers when another process writes, and tells
        its notifier whether another process listens (PostgreSQL only)."""
        if not isinstance(self.recorder, HorizonRecorder):
            return None
        notifier = self.recorder.notifier
        return PostgresListener(
            database_url,
            self.recorder.channel_name,
            self.changes,
            own=notifier.origin,
            peers=notifier.peers,
        )

    @property
    def postgres(self) -> bool:
        return isinstance(self.recorder, HorizonRecorder)

    def rows(self, statement: str, parameters: Sequence[Any] = ()) -> list[Any]:
        """The rows of one read-only statement, which reads one snapshot by itself, sent with
        no transaction around it (the recorder's ``rows``: on PostgreSQL one round trip where
        ``reading`` takes three, on SQLite no pool for a file). Anything but a SELECT is refused
        before it is sent: nothing else would stop a write, which would commit at once. Errors
        come out as the library's (a 503, not a driver's error and a 500)."""
        if statement.lstrip()[:6].upper() != "SELECT":
            raise ValueError(f"rows reads with a SELECT only, not: {statement[:40]!r}")
        return self.writer.rows(statement, parameters)

    def row(self, statement: str, parameters: Sequence[Any] = ()) -> Any:
        """The first row of one read-only statement (``rows``), None if it returns none."""
        found = self.rows(statement, parameters)
        return found[0] if found else None

    @contextlib.contextmanager
    def reading(self) -> Iterator[Any]:
        """A cursor to read on, in a transaction that writes nothing, for statements that must
        read one snapshot together (one statement alone: ``rows``); on PostgreSQL, a
        connection of the recorder's, under its watchdog and the request's store budget."""
        recorder = self.writer
        if isinstance(recorder, HorizonRecorder):
            with recorder.reading() as cursor:
                yield cursor
        else:
            with recorder.datastore.transaction(commit=False) as cursor:
                yield cursor

    def transact(self, work: Callable[[Any], T]) -> T:
        """Run ``work(cursor)`` in a write transaction and commit it (read models use this)."""
        return self.writer.transact(work)

    def transact_at_once(self, work: Callable[[Any], T]) -> T:
        """``transact`` for work that executes statements and reads no result back: on
        PostgreSQL they go to the server together, in one round trip."""
        recorder = self.writer
        if isinstance(recorder, HorizonRecorder):
            return recorder.transact_at_once(work)
        return recorder.transact(work)

    @contextlib.contextmanager
    def schema_lock(self, name: str) -> Iterator[None]:
        """Held while creating tables, so processes starting together do not race."""
        if isinstance(self.recorder, HorizonRecorder):
            with schema_lock(self.recorder.datastore, name):
                yield
        else:
            yield  # SQLite serialises DDL itself

    def game_notifications(
        self,
        after: int,
        limit: int,
        topics: tuple[str, ...] | None = None,
        *,
        reader: Hashable | None = None,
    ) -> list[Notification]:
        """Game events after a log position, in log order (those of ``topics`` if given).
        ``reader``: a background reader of the log, answered from the tail this process read
        last when that answers exactly (``service/store/readers/tail.py``)."""
        wanted = topics or self._game_topics
        if reader is not None:
            found = self.tail.read(reader, after, limit, wanted)
            if found is not None:
                return found
        return self._select(after, limit, wanted)

    def _select(self, after: int, limit: int, topics: tuple[str, ...]) -> list[Notification]:
        return list(
            self.recorder.select_notifications(
                after, limit, topics=topics, inclusive_of_start=False
            )
        )

    def game_events_after(self, after: int, most: int) -> int:
        """How many game events the log holds past a position (counted up to ``most``)."""
        return self.writer.count_notifications(after, tuple(event_types()), most)

    def first_game_event_after(self, after: int) -> Recorded | None:
        """The game event a reader at this position takes next, if the log holds one yet."""
        found = self.game_notifications(after, 1)
        return self.decode(found[0]) if found else None

    def queue_notifications(self, after: int, limit: int) -> list[Notification]:
        """Matchmaking queues' events after a log position, in log order."""
        return self._select(after, limit, tuple(QUEUE_TOPICS))

    def projected_notifications(
        self, after: int, limit: int, *, reader: Hashable | None = None
    ) -> list[Notification]:
        """What the read models follow: game events and rematch events, in log order."""
        return self.game_notifications(after, limit, self._projected_topics, reader=reader)

    def rematch_events(self, game_id: str) -> list[Rematched]:
        """The stored events of an ended game's rematch (none while nobody offered one)."""
        return list(self.events.get(rematch_id(game_id)))  # type: ignore[arg-type]

    def last_position(self) -> int:
        """The newest position of the log (0 while it is empty)."""
        return self.recorder.max_notification_id() or 0

    def decode_queued(self, notification: Notification) -> Queued:
        queued = self.mapper.to_domain_event(notification)
        assert isinstance(queued, Queued)
        return queued

    def decode(self, notification: Notification) -> Recorded:
        recorded = self.tail.decoded(notification, self.mapper.to_domain_event)
        assert isinstance(recorded, Recorded)
        return recorded

    def decode_projected(self, notification: Notification) -> Recorded | Rematched:
        """An event of ``projected_notifications``."""
        decoded = self.tail.decoded(notification, self.mapper.to_domain_event)
        assert isinstance(decoded, Recorded | Rematched)
        return decoded

    def close(self) -> None:
        self.writer.close()
        super().close()
