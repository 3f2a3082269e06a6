"""The games this process holds in memory, so a command costs one store round trip.

A command is decided on the process's copy of its game and saved at once: the store refuses an
event whose (game, version) is taken, so a stale copy costs a retry, never a wrong write. What
cannot be checked that way (a refusal, a read) is checked against the store first: one query
for the events after the copy's version.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.aggregate import GameAggregate, project
from service.errors import GAME_NOT_FOUND
from service.store.event_store import Store


class Games:
    def __init__(self, store: Store, capacity: int) -> None:
        self._store = store
        self._capacity = capacity
        self._copies: OrderedDict[UUID, GameAggregate] = OrderedDict()
        self._lock = threading.Lock()

    def cached(self, game_id: UUID) -> GameAggregate:
        """This process's copy, possibly behind the store; loaded if there is none."""
        with self._lock:
            known = self._copies.get(game_id)
            if known is not None:
                self._copies.move_to_end(game_id)
                return known
        return self.fresh(game_id)

    def fresh(self, game_id: UUID, known: GameAggregate | None = None) -> GameAggregate:
        """The game as stored now: the copy (or ``known``) brought up to date."""
        if known is None:
            with self._lock:
                known = self._copies.get(game_id)
        if known is None:
            try:
                loaded = self._store.repository.get(game_id, projector_func=project)
            except AggregateNotFoundError:
                raise GAME_NOT_FOUND("no such game") from None
            if not isinstance(loaded, GameAggregate):
                raise GAME_NOT_FOUND("no such game")
            self.remember(loaded)
            return loaded
        newer = list(self._store.events.get(game_id, gt=known.version))
        if not newer:
            return known
        current = project(known.fork(), newer)
        assert current is not None
        self.remember(current)
        return current

    def remember(self, aggregate: GameAggregate) -> None:
        """Keep the newest copy of each game, the least recently used ones beyond capacity
        forgotten."""
        with self._lock:
            current = self._copies.get(aggregate.id)
            if current is None or current.version < aggregate.version:
                self._copies[aggregate.id] = aggregate
            self._copies.move_to_end(aggregate.id)
            while len(self._copies) > self._capacity:
                self._copies.popitem(last=False)

    def __len__(self) -> int:
        return len(self._copies)
