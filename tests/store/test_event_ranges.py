"""One game's events by version range, on both stores: after a version (not at it), up to one
(at it too), newest first when asked, and no more than the limit."""

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
