"""PostgreSQL: a transaction's events take the ids ``xid << 20 | position``, positions 1 up, so
a batch holds at most 2**20 - 1 events; a larger one would spill its last id into the range of
the next transaction id. The limit is checked before anything reaches the database."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import StoredEvent

from service.settings import Settings
from service.store.event_store import Store
from service.store.postgres import POSITION_BITS, HorizonRecorder

pytestmark = pytest.mark.postgres


class ReachedTheDatabase(Exception):
    pass


@pytest.fixture
def recorder(postgres_url: str, tmp_path: Path) -> Iterator[HorizonRecorder]:
    store = Store(env=Settings(database_url=postgres_url, data_dir=tmp_path).store_env())
    assert isinstance(store.recorder, HorizonRecorder)
    yield store.recorder
    store.close()


def events(count: int) -> list[StoredEvent]:
    """``count`` events (one object, repeated: the limit is checked on the count alone)."""
    event = StoredEvent(originator_id=uuid.uuid4(), originator_version=1, topic="t", state=b"{}")
    return [event] * count


@contextlib.contextmanager
def no_database() -> Iterator[Any]:
    raise ReachedTheDatabase
    yield  # pragma: no cover - a generator, so that this is a context manager


def test_a_batch_that_would_spill_past_its_transaction_is_refused(
    recorder: HorizonRecorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(recorder, "connection", no_database)
    largest = (1 << POSITION_BITS) - 1  # the last position that fits the transaction's range
    with pytest.raises(ReachedTheDatabase):
        recorder.insert_events(events(largest))
    with pytest.raises(ValueError, match="at most"):
        recorder.insert_events(events(largest + 1))


def test_the_positions_of_a_batch_stay_inside_its_transaction(recorder: HorizonRecorder) -> None:
    game = uuid.uuid4()
    batch = [
        StoredEvent(originator_id=game, originator_version=v, topic="t", state=b"{}")
        for v in range(1, 4)
    ]
    ids = recorder.insert_events(batch)
    assert ids is not None
    transaction = {i >> POSITION_BITS for i in ids}
    assert len(transaction) == 1
    assert [i & ((1 << POSITION_BITS) - 1) for i in ids] == [1, 2, 3]
