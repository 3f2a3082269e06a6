"""The log follower, close to the code: its position passes every event it read, whether or not
any consumer wanted one (most events interest nobody), and each wanted event is handed on once."""

from __future__ import annotations

import uuid
from types import SimpleNamespace
from typing import Any, cast

from eventsourcing.persistence import Notification

from domain.aggregate import Recorded
from service.background.follower import BATCH, LogFollower
from service.store.event_store import Store
from service.store.readers.changes import Changes


class Log:
    """The part of the store the follower reads: game notifications past a position."""

    def __init__(self, topics: list[str]) -> None:
        self.changes = Changes()
        self.game = uuid.uuid4()
        self.notifications: list[Notification] = []
        self.reads = 0
        for topic in topics:
            self.add(topic)

    def add(self, topic: str) -> None:
        """The next event (ids leave gaps, as PostgreSQL's do)."""
        n = len(self.notifications) + 1
        self.notifications.append(
            Notification(
                id=10 * n, originator_id=self.game, originator_version=n, topic=topic, state=b"{}"
            )
        )

    def game_notifications(
        self, after: int, limit: int, reader: object = None
    ) -> list[Notification]:
        self.reads += 1
        assert self.reads < 100, "the follower reads the same events over and over"
        return [n for n in self.notifications if n.id > after][:limit]

    def decode(self, notification: Notification) -> Any:
        return notification


class Wants:
    def __init__(self, topic: str) -> None:
        self.topic = topic
        self.observed: list[Any] = []

    def wants(self, notification: Notification) -> bool:
        return notification.topic == self.topic

    def observe(self, recorded: list[Recorded]) -> None:
        self.observed += recorded


def follower(log: Log, *consumers: Wants) -> LogFollower:
    return LogFollower(cast(Store, log), list(consumers), start=lambda: 0)


def test_a_batch_nobody_wants_still_moves_the_position() -> None:
    log = Log(["dull"] * 3)
    consumer = Wants("deadline")
    following = follower(log, consumer)
    following.step()
    assert following.position == log.notifications[-1].id
    assert consumer.observed == []


def test_every_wanted_event_is_handed_on_once_across_batches() -> None:
    topics = ["deadline", *["dull"] * (BATCH - 1), *["dull"] * BATCH, "dull", "deadline", "dull"]
    log = Log(topics)
    deadlines, nothing = Wants("deadline"), Wants("never")
    following = follower(log, deadlines, nothing)
    following.step()
    assert following.position == log.notifications[-1].id
    assert [n.originator_version for n in deadlines.observed] == [1, 2 * BATCH + 2]
    assert nothing.observed == []
    log.add("dull")
    following.step()
    assert following.position == log.notifications[-1].id
    assert len(deadlines.observed) == 2  # nothing handed on twice


def test_a_queue_follower_moves_past_the_game_events_it_does_not_read() -> None:
    """Queue events are rare: a follower of them that stayed where its last one was would scan
    every later game event at each read. It moves up to the horizon (every id below it ended
    before the read), and no further."""
    log = Log(["cardledger:GameCreated:v1"] * 3)  # ids 10, 20, 30
    horizon = [31]
    sparse = cast(Any, log)
    sparse.queue_notifications = lambda after, limit: []
    sparse.decode_queued = log.decode
    sparse.writer = SimpleNamespace(horizon=lambda: horizon[0])
    queues = LogFollower(cast(Store, log), [], start=lambda: 0, queues=True)
    queues.step()
    assert queues.position == 30
    horizon[0] = 12  # a reading can only move forward
    queues.step()
    assert queues.position == 30
