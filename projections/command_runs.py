"""A command's events, together: the log keeps a command's events in one game next to each
other (one save, one transaction), and messages are derived once per such run."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from domain.aggregate import GameAggregate, Recorded
from domain.game_state import GameState
from domain.matchmaking.rematch import Rematched
from projections.player_messages import Run

Positioned = tuple[int, Recorded | Rematched]  # (log position, event)


def whole_runs(events: list[Positioned]) -> list[Positioned]:
    """A batch cut short of its last run, which the batch may hold only part of (unless the
    run is the whole batch): the next batch starts with that run's first event."""
    last = _key(events[-1][1])
    start = len(events)
    while start > 0 and _key(events[start - 1][1]) == last:
        start -= 1
    return events[:start] if start > 0 else events


def _key(event: Recorded | Rematched) -> tuple[UUID, str]:
    return event.originator_id, event.command_id


class RunCollector:
    """Gathers a batch's events into runs, in log order."""

    def __init__(self) -> None:
        self._done: list[Run] = []
        self._key: tuple[UUID, str] | None = None
        self._before: GameState | None = None
        self._actors: set[str] = set()
        self._last: tuple[int, GameAggregate, datetime] | None = None

    def add(
        self, position: int, event: Recorded, before: GameState | None, after: GameAggregate
    ) -> None:
        """An event, the game's state before it, and the game after it."""
        key = _key(event)
        if key != self._key:
            self._close()
            self._key, self._before, self._actors = key, before, set()
        self._actors.add(event.actor)
        self._last = (position, after, event.timestamp)

    def done(self) -> list[Run]:
        self._close()
        return self._done

    def _close(self) -> None:
        if self._last is None:
            return
        position, after, at = self._last
        self._done.append(
            Run(
                position=position,
                before=self._before,
                after=after.state,
                version=after.version,
                at=at,
                actors=frozenset(self._actors),
            )
        )
        self._last = None
