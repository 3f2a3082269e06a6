"""One feed per followed game: its latest state and recent events, shared by all its streams.

A write made by this process is offered to the feed as it is saved; writes of other processes
arrive through the log follower, already decoded, and are folded onto the feed's state. Either
way no stream loads anything to learn what happened, and each message is rendered once per
perspective (however many spectators share it), not once per viewer.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from datetime import datetime
from uuid import UUID

import msgspec
from eventsourcing.persistence import Notification

from domain.aggregate import GameAggregate, Recorded, project
from domain.game import expiry_due
from domain.perspective import Perspective
from projections.events import event_out
from service.application.queries import view_of
from service.store.games import Games

RECENT = 256  # events a feed keeps for streams that are a little behind
RENDERED = 1024  # rendered messages a feed keeps


class Feed:
    def __init__(self, aggregate: GameAggregate) -> None:
        self.game_id = aggregate.id
        self.aggregate = aggregate
        self.recent: OrderedDict[int, Recorded] = OrderedDict()
        self.lock = threading.Lock()
        self.waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self._rendered: OrderedDict[tuple[str, int, Perspective], str] = OrderedDict()

    def advance(self, aggregate: GameAggregate, recorded: Iterable[Recorded]) -> None:
        """Take the events, and the state if it is newer (writes may be offered out of order)."""
        with self.lock:
            for event in recorded:
                self.recent[event.originator_version] = event
            self.recent = OrderedDict(sorted(self.recent.items())[-RECENT:])
            if aggregate.version > self.aggregate.version:
                self.aggregate = aggregate
        self.wake()

    def after(self, version: int) -> tuple[GameAggregate, list[Recorded]] | None:
        """The state and the events after ``version``, or None if they are not all here."""
        with self.lock:
            aggregate = self.aggregate
            wanted = range(version + 1, aggregate.version + 1)
            if any(v not in self.recent for v in wanted):
                return None
            return aggregate, [self.recent[v] for v in wanted]

    def event_json(self, event: Recorded, perspective: Perspective) -> str:
        key = ("event", event.originator_version, perspective)
        return self._render(key, lambda: event_out(event, perspective))

    def view_json(self, aggregate: GameAggregate, perspective: Perspective, now: datetime) -> str:
        """The view as of ``now``; rendered once per perspective, except past an unapplied
        deadline, where it depends on the time (rare, and brief: the watcher applies it)."""

        def make() -> object:
            return view_of(aggregate, perspective, now)

        if expiry_due(aggregate.state, now):
            return msgspec.json.encode(make()).decode()
        return self._render(("view", aggregate.version, perspective), make)

    def _render(self, key: tuple[str, int, Perspective], make: Callable[[], object]) -> str:
        with self.lock:
            found = self._rendered.get(key)
        if found is None:
            found = msgspec.json.encode(make()).decode()
            with self.lock:
                self._rendered[key] = found
                while len(self._rendered) > RENDERED:
                    self._rendered.popitem(last=False)
        return found

    def wake(self) -> None:
        """Thread-safe: every stream of this feed looks again."""
        with self.lock:
            waiters = list(self.waiters)
        for loop, event in waiters:
            if not loop.is_closed():
                loop.call_soon_threadsafe(event.set)


class Feeds:
    """The feeds of the games someone follows in this process."""

    def __init__(self, games: Games) -> None:
        self._games = games
        self._feeds: dict[UUID, Feed] = {}
        self._followers: dict[UUID, int] = {}
        self._lock = threading.Lock()

    def followed(self) -> int:
        """How many games someone follows here now."""
        return len(self._feeds)

    def streams(self) -> int:
        """How many streams follow a game here now (each stream follows one, once)."""
        with self._lock:
            return sum(self._followers.values())

    def follow(self, aggregate: GameAggregate) -> tuple[Feed, asyncio.Event]:
        """Start following (from the event loop); ``aggregate`` is the game as just loaded."""
        event = asyncio.Event()
        with self._lock:
            feed = self._feeds.get(aggregate.id)
            if feed is None:
                feed = self._feeds[aggregate.id] = Feed(aggregate)
            self._followers[aggregate.id] = self._followers.get(aggregate.id, 0) + 1
        feed.advance(aggregate, ())
        with feed.lock:
            feed.waiters.add((asyncio.get_running_loop(), event))
        return feed, event

    def unfollow(self, feed: Feed, event: asyncio.Event) -> None:
        with feed.lock:
            feed.waiters = {(loop, e) for loop, e in feed.waiters if e is not event}
        with self._lock:
            left = self._followers.get(feed.game_id, 1) - 1
            if left <= 0:
                self._followers.pop(feed.game_id, None)
                self._feeds.pop(feed.game_id, None)
            else:
                self._followers[feed.game_id] = left

    def offer(self, aggregate: GameAggregate, recorded: list[Recorded]) -> None:
        """A write this process just made."""
        feed = self._feeds.get(aggregate.id)
        if feed is not None:
            feed.advance(aggregate, recorded)

    def wants(self, notification: Notification) -> bool:
        return notification.originator_id in self._feeds

    def observe(self, recorded: list[Recorded]) -> None:
        """Events read from the log (any process's): fold them onto the feeds they belong to."""
        by_game: dict[UUID, list[Recorded]] = {}
        for event in recorded:
            if event.originator_id in self._feeds:
                by_game.setdefault(event.originator_id, []).append(event)
        for game_id, events in by_game.items():
            feed = self._feeds.get(game_id)
            if feed is not None:
                self._catch_up(feed, events)

    def _catch_up(self, feed: Feed, events: list[Recorded]) -> None:
        known = feed.aggregate
        newer = [e for e in events if e.originator_version > known.version]
        if not newer:
            return  # this process wrote them, or they were already folded
        if newer[0].originator_version != known.version + 1:
            feed.advance(self._games.fresh(feed.game_id, known), ())  # a gap: load once
            return
        current = project(known.fork(), newer)
        assert current is not None
        feed.advance(current, newer)
