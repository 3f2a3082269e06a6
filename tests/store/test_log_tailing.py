"""A short run of the tailing check on both stores (`make torture` runs it for a minute)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.settings import Settings
from service.store.event_store import Store
from tests.store import log_tailing


@pytest.fixture
def stores(settings: Settings) -> Iterator[list[Store]]:
    opened = [Store(env=settings.store_env()) for _ in range(3)]
    yield opened
    for store in opened:
        store.close()


def test_readers_tailing_many_writers_miss_no_event(stores: list[Store]) -> None:
    outcome = log_tailing.run(stores, seconds=4)
    assert outcome.ok(), outcome.figure()
