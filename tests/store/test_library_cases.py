"""Our recorders pass the eventsourcing library's own recorder test cases.

The library's cases are imported and run against our SQLite and PostgreSQL recorders. One case
pins notification ids to 1, 2, 3: on PostgreSQL ours come from transaction ids and are sparse
by design, so for it alone that case is replaced by one checking the same reads with the ids the
inserts returned.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.tests.persistence import (
    ApplicationRecorderTestCase,
    NonInterleavingNotificationIDsBaseCase,
)

from service.settings import Settings
from service.store.event_store import Store
from service.store.postgres import HorizonRecorder
from service.store.sqlite import BatchingRecorder


@pytest.fixture
def sqlite_dir(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    request.instance.settings = Settings(data_dir=tmp_path)


@pytest.fixture
def postgres_schema(request: pytest.FixtureRequest, postgres_url: str, tmp_path: Path) -> None:
    request.instance.settings = Settings(database_url=postgres_url, data_dir=tmp_path)


OPEN: list[Store] = []


@pytest.fixture(scope="module", autouse=True)
def close_stores_at_the_end() -> Iterator[None]:
    """Some of the library's cases leave reader threads finishing after the case returns:
    close the stores only once every case of the module is done."""
    yield
    while OPEN:
        OPEN.pop().close()


class OurRecorder:
    settings: Settings

    def create_recorder(self) -> Any:
        store = Store(env=self.settings.store_env())
        OPEN.append(store)
        return store.recorder


@pytest.mark.usefixtures("sqlite_dir")
class TestSQLiteRecorderWithTheLibrarysCases(OurRecorder, ApplicationRecorderTestCase[Any]):
    def test_it_is_ours(self) -> None:
        assert isinstance(self.create_recorder(), BatchingRecorder)


@pytest.mark.usefixtures("sqlite_dir")
class TestSQLiteRecorderDoesNotInterleave(OurRecorder, NonInterleavingNotificationIDsBaseCase):
    pass


@pytest.mark.postgres
@pytest.mark.usefixtures("postgres_schema")
class TestPostgresRecorderWithTheLibrarysCases(OurRecorder, ApplicationRecorderTestCase[Any]):
    EXPECT_CONTIGUOUS_NOTIFICATION_IDS = False

    def test_it_is_ours(self) -> None:
        assert isinstance(self.create_recorder(), HorizonRecorder)

    def test_insert_select(self) -> None:
        recorder = self.create_recorder()
        assert recorder.select_notifications(start=None, limit=3) == []
        assert recorder.max_notification_id() is None
        first, second = self.new_originator_id(), self.new_originator_id()
        events = [
            StoredEvent(originator_id=first, originator_version=1, topic="t1", state=b"s1"),
            StoredEvent(originator_id=first, originator_version=2, topic="t2", state=b"s2"),
            StoredEvent(originator_id=second, originator_version=1, topic="t3", state=b"s3"),
        ]
        ids = [*recorder.insert_events(events[:2]), *recorder.insert_events(events[2:])]
        assert ids == sorted(ids) and len(set(ids)) == 3
        assert ids[1] == ids[0] + 1  # one transaction's events are consecutive
        with pytest.raises(IntegrityError):
            recorder.insert_events(events[2:])
        assert len(recorder.select_events(first)) == 2
        assert len(recorder.select_events(second)) == 1

        def read(*args: Any, **kwargs: Any) -> list[tuple[int, str, bytes]]:
            found = recorder.select_notifications(*args, **kwargs)
            return [(n.id, n.topic, n.state) for n in found]

        everything = [(ids[0], "t1", b"s1"), (ids[1], "t2", b"s2"), (ids[2], "t3", b"s3")]
        assert read(start=None, limit=10) == everything
        assert read(start=ids[0], limit=10) == everything
        assert read(start=None, stop=ids[1], limit=10) == everything[:2]
        assert read(start=ids[0], limit=10, inclusive_of_start=False) == everything[1:]
        assert read(start=ids[1], limit=10, inclusive_of_start=False) == everything[2:]
        assert read(None, 10, topics=["t1", "t3"]) == [everything[0], everything[2]]
        assert read(ids[0], 3, topics=["t2"]) == [everything[1]]
        assert read(None, 1) == everything[:1]
        assert read(ids[1], 1) == [everything[1]]
        assert read(ids[0], 1, inclusive_of_start=False) == [everything[1]]
        assert recorder.max_notification_id() == ids[2]


@pytest.mark.postgres
@pytest.mark.usefixtures("postgres_schema")
class TestPostgresRecorderDoesNotInterleave(OurRecorder, NonInterleavingNotificationIDsBaseCase):
    pass
