"""A variant's matchmaking queue as events: players join and leave it, and tables formed from it
take their entries away. ``QueueState`` is what the events add up to (``evolve``).

One queue stream per variant: a table is only ever formed from one variant's entries, so every
decision that could seat a player twice (two tables sharing an entry) is a write to that one
stream, and the store's version check on it lets only one of two racing decisions through.
Different variants' queues never contend (docs/matchmaking.md).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, ClassVar

import msgspec

TOPIC_PREFIX = "cardledger:queue"


class QueueEvent(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """Base of the queue's events; each subclass has an explicit, stable ``tag``."""

    SCHEMA_VERSION: ClassVar[int] = 1


class EntryJoined(QueueEvent, frozen=True, tag="EntryJoined"):
    """A player waits for a table of ``min_seats`` to ``max_seats`` with these (resolved)
    options, at ``rating`` (as known when joining). ``rating_band``: the widest rating gap the
    player accepts at the table (None: any). ``bots_after``: seconds after which the free seats
    may be given to bots of ``bot_level`` (None: humans only)."""

    player_id: str
    name: str
    min_seats: int
    max_seats: int
    options: dict[str, Any]
    rating: float
    rating_band: float | None = None
    bots_after: float | None = None
    bot_level: int | None = None
    client_seed: str = ""


class EntryLeft(QueueEvent, frozen=True, tag="EntryLeft"):
    player_id: str


class TableFormed(QueueEvent, frozen=True, tag="TableFormed"):
    """The entries of ``player_ids`` (in seat order) are seated at ``game_id``, written in the
    same transaction as the game; the seats after theirs went to ``bots`` bots of ``bot_level``."""

    game_id: str
    player_ids: tuple[str, ...]
    seat_count: int
    bots: int = 0
    bot_level: int | None = None


QUEUE_EVENTS: tuple[type[QueueEvent], ...] = (EntryJoined, EntryLeft, TableFormed)


def queue_topic(kind: type[QueueEvent]) -> str:
    return f"{TOPIC_PREFIX}:{kind.__struct_config__.tag}:v{kind.SCHEMA_VERSION}"


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    """A waiting player, as matching sees it: the join event, when it happened and its place
    in the queue (the version of the join: earlier joins wait longer)."""

    joined: EntryJoined
    joined_at: datetime
    place: int

    @property
    def player_id(self) -> str:
        return self.joined.player_id

    @property
    def bots_due(self) -> datetime | None:
        """When bots may take the free seats of this player's table (None: never)."""
        if self.joined.bots_after is None:
            return None
        return self.joined_at + timedelta(seconds=self.joined.bots_after)


class QueueState(msgspec.Struct, kw_only=True):
    """Who waits (in join order) and, for each player matched, the last game the queue seated
    them at. Changed in place by ``apply`` as a stream is folded (a long stream folds in linear
    time); a decision is made on a ``copy``."""

    variant: str
    waiting: dict[str, Entry] = msgspec.field(default_factory=dict)
    matched: dict[str, str] = msgspec.field(default_factory=dict)

    def copy(self) -> QueueState:
        return QueueState(
            variant=self.variant, waiting=dict(self.waiting), matched=dict(self.matched)
        )

    def apply(self, event: QueueEvent, *, at: datetime, version: int) -> None:
        """Fold ``event``, recorded at ``at`` as the stream's ``version``."""
        if isinstance(event, EntryJoined):
            self.waiting[event.player_id] = Entry(joined=event, joined_at=at, place=version)
        elif isinstance(event, EntryLeft):
            self.waiting.pop(event.player_id, None)
        elif isinstance(event, TableFormed):
            for player_id in event.player_ids:
                self.waiting.pop(player_id, None)
                self.matched[player_id] = event.game_id
