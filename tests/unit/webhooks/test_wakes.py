"""The webhooks' deliverer is woken by every batch of players' messages; while no webhook is
active it asks the store once a poll whether one is, not at every wake-up (most deployments have
none, and each wake-up's queries were a fifteenth of a command's instructions)."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from service.background.webhooks import POLL_SECONDS, WebhookDeliverer


class CountedTables:
    def __init__(self, active: bool) -> None:
        self.active = active
        self.asked: list[str] = []

    def any_active(self) -> bool:
        self.asked.append("any_active")
        return self.active

    def due(self, now: datetime, limit: int) -> list[Any]:
        self.asked.append("due")
        return []

    def soonest_retry(self) -> datetime | None:
        self.asked.append("soonest_retry")
        return None


def deliverer(tables: CountedTables) -> WebhookDeliverer:
    webhooks: Any = SimpleNamespace(tables=tables, settings=SimpleNamespace(webhook_timeout=5))
    read_models: Any = None  # not read while nothing is due
    return WebhookDeliverer(webhooks, read_models, clock=lambda: datetime.now(UTC))


def test_without_an_active_webhook_wake_ups_between_polls_ask_nothing() -> None:
    tables = CountedTables(active=False)
    hooks = deliverer(tables)
    try:
        waits = [hooks.catch_up() for _ in range(50)]  # a burst of messages written
        assert tables.asked == ["any_active"]  # the first look; the rest wait for the poll
        assert all(0 < wait <= POLL_SECONDS for wait in waits)
    finally:
        hooks.close()


def test_with_an_active_webhook_every_wake_up_looks_for_messages_due() -> None:
    tables = CountedTables(active=True)
    hooks = deliverer(tables)
    try:
        for _ in range(3):
            hooks.catch_up()
        assert tables.asked.count("due") == 3
        assert tables.asked.count("any_active") == 1  # once a poll
    finally:
        hooks.close()
