"""Reads by range, on both stores: one game's events after a version (not at it), up to one (at
it too), newest first when asked, and no more than the limit; the log's notifications from a
position (at it or past it), up to one, of some topics, and no more than the limit."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import StoredEvent

from service.settings import Settings
from service.store.event_store import Store


@pytest.fixture
def store(settings: Settings, tmp_path: Path) -> Iterator[Store]:
    opened = Store(env=settings.store_env())
    yield opened
    opened.close()


def test_a_games_events_by_version_range(store: Store) -> None:
    game = uuid.uuid4()
    store.recorder.insert_events(
        [
            StoredEvent(originator_id=game, originator_version=v, topic="t", state=b"{}")
            for v in range(1, 7)
        ]
    )

    def versions(**query: Any) -> list[int]:
        return [e.originator_version for e in store.recorder.select_events(game, **query)]

    assert versions() == [1, 2, 3, 4, 5, 6]
    assert versions(gt=2) == [3, 4, 5, 6]
    assert versions(lte=2) == [1, 2]
    assert versions(gt=2, lte=4) == [3, 4]
    assert versions(gt=4, lte=4) == []
    assert versions(desc=True) == [6, 5, 4, 3, 2, 1]
    assert versions(gt=1, desc=True, limit=2) == [6, 5]
    assert versions(limit=2) == [1, 2]
    assert versions(gt=6) == []


def test_the_logs_notifications_by_position_and_topic(store: Store) -> None:
    game = uuid.uuid4()
    topics = ["a", "b", "it's", "a", "b", "a"]  # a quote in a topic is written in quoted
    ids = store.recorder.insert_events(
        [
            StoredEvent(originator_id=game, originator_version=v, topic=topic, state=b"{}")
            for v, topic in enumerate(topics, start=1)
        ]
    )
    assert ids is not None
    first = ids[0]

    def found(start: int | None, limit: int = 10, **query: Any) -> list[tuple[int, str]]:
        read = store.recorder.select_notifications(start, limit, **query)
        return [(n.originator_version, n.topic) for n in read]

    assert [v for v, _ in found(first)] == [1, 2, 3, 4, 5, 6]
    assert [v for v, _ in found(first, inclusive_of_start=False)] == [2, 3, 4, 5, 6]
    assert [v for v, _ in found(first, stop=ids[2])] == [1, 2, 3]
    assert found(first, topics=("a",)) == [(1, "a"), (4, "a"), (6, "a")]
    assert found(first, topics=("b", "it's")) == [(2, "b"), (3, "it's"), (5, "b")]
    assert found(ids[1], 2, topics=("a", "b"), inclusive_of_start=False) == [(4, "a"), (5, "b")]
    assert found(first, topics=("c",)) == []
    assert store.recorder.count_notifications(first, ("a",), 10) == 2  # past it, not at it
    with pytest.raises(ValueError, match="%"):
        store.recorder.select_notifications(first, 10, topics=("50%",))
