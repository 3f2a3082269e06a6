"""A short run of the tailing check on both stores (`make torture` runs it for a minute)."""

from __future__ import annotations

from service.settings import Settings
from tests.store import log_tailing


def test_readers_tailing_many_writers_miss_no_event(settings: Settings) -> None:
    outcome = log_tailing.run(settings, seconds=4)
    assert outcome.ok(), outcome.figure()
