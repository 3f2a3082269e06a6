"""Reads from a standby (CARDLEDGER_READ_URL), never older than what the client holds.

A standby replays the primary's log a moment behind it. A read routed there first asks whether
the standby has reached what the client is known to hold: the version of the game it sends back
(its ETag, or the page it asks after), or for the read models the position the primary's rows
stand at when the request came (so no answer is older than the primary would give now, and none
older than one given before). If the standby is behind, it is asked again for a short, bounded
time; then the primary answers. A standby that fails answers through the primary too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar
from uuid import UUID

from eventsourcing.persistence import PersistenceError
from prometheus_client import CollectorRegistry, Counter

from domain.aggregate import GameAggregate
from service.errors import ApiError
from service.store.event_store import Store

T = TypeVar("T")
U = TypeVar("U")

WAIT_SECONDS = 0.2  # how long a read waits for a standby that is behind the client
POLL_SECONDS = 0.01  # between two looks at a standby that is behind

READS_HELP = (
    "Reads that could go to the standby (CARDLEDGER_READ_URL), by what answered them: standby,"
    " primary_behind (the standby lacked what the client holds) or primary_unavailable"
)


class GameSource(Protocol):
    def fresh(self, game_id: UUID) -> GameAggregate: ...


class Positioned(Protocol):
    def position(self) -> int: ...


@dataclass(frozen=True)
class Side:
    """Where a read comes from: a game's copy and the store its events are read from."""

    games: GameSource
    store: Store


class StandbyReads:
    def __init__(
        self,
        primary: Side,
        standby: Side,
        registry: CollectorRegistry,
        *,
        wait: float = WAIT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.primary = primary
        self.standby = standby
        self._wait = wait
        self._clock = clock
        self._sleep = sleep
        self._reads = Counter(
            "cardledger_standby_reads", READS_HELP, ["read", "by"], registry=registry
        )

    def game(self, game_id: UUID, holds: int) -> tuple[GameAggregate, Side]:
        """The game at ``holds`` or later, from the standby if it has it in time."""
        found = self._first(
            "game",
            lambda: self.standby.games.fresh(game_id),
            lambda aggregate: aggregate.version >= holds,
            lambda aggregate: aggregate,
        )
        if found is not None:
            return found, self.standby
        return self.primary.games.fresh(game_id), self.primary

    def read_model(self, rows: Positioned, reached: int, read: Callable[[], T]) -> T | None:
        """``read()`` of the standby's read models once their position (``rows``) has
        ``reached`` the primary's; None if it did not in time (the primary answers)."""
        return self._first(
            "read_models", rows.position, lambda position: position >= reached, lambda _: read()
        )

    def _first(
        self,
        read: str,
        attempt: Callable[[], U],
        enough: Callable[[U], bool],
        then: Callable[[U], T],
    ) -> T | None:
        """``then`` of the first ``attempt`` that is ``enough``, or None (the primary's turn)."""
        give_up = self._clock() + self._wait
        try:
            while True:
                got = attempt()
                if enough(got):
                    answer = then(got)
                    self._reads.labels(read, "standby").inc()
                    return answer
                if self._clock() >= give_up:
                    break
                self._sleep(POLL_SECONDS)
        except ApiError:
            pass  # not on the standby yet (no such game there): the primary says
        except PersistenceError:
            self._reads.labels(read, "primary_unavailable").inc()
            return None
        self._reads.labels(read, "primary_behind").inc()
        return None
