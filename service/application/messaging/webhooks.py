"""A player's webhook: register (the signing key shown once), look, resume, delete; and what
the deliverer needs to know and record (service/background/webhooks.py delivers).

The outbox is the player's messages (the read models' rows), so a webhook is only a target, a
key and a cursor: registering one starts it after the player's newest message (from now on,
as a live stream without Last-Event-ID); replacing it keeps the cursor, so nothing is lost or
sent twice by changing the URL or the key.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

import msgspec
from prometheus_client import CollectorRegistry, Counter
from prometheus_client.core import GaugeMetricFamily, Metric

from projections.player_messages import message_id
from service.application.messaging.messages import BEFORE_ALL, listener
from service.application.messaging.webhook_targets import allowed_origins, check_target, new_key
from service.auth import Principal
from service.errors import NO_WEBHOOK
from service.read_models.models import ReadModels
from service.read_models.webhook_tables import Attempt, WebhookRow, WebhookTables
from service.settings import Settings

MOST_COUNTED = 10_000  # pending messages: a look counts no further
OUTCOMES = ("delivered", "rejected", "unreachable", "not_allowed")


def backoff(failed_before: int, first: float, most: float, draw: Callable[[], float]) -> float:
    """Seconds to wait after a failure that follows ``failed_before`` failures in a row, with
    full jitter: ``draw()`` (in [0, 1)) of the ceiling, which is ``first`` doubled each time,
    at most ``most``. Receivers that failed together (one outage) are then not all tried
    again at the same moment."""
    return float(min(most, first * 2 ** min(failed_before, 32))) * draw()


class RegisteredWebhook(msgspec.Struct, frozen=True, kw_only=True):
    url: str
    signing_key: str  # shown in this answer only: it signs every delivery
    created_at: datetime
    cursor: str | None  # deliveries start after this message id (None: the first)


class WebhookStatus(msgspec.Struct, frozen=True, kw_only=True):
    """Where a webhook's deliveries stand; never its key."""

    url: str
    created_at: datetime
    state: str  # active, or failing: paused after failing too long (resume or replace it)
    cursor: str | None  # the id of the last message the receiver acknowledged
    pending: int  # messages past the cursor (counted up to MOST_COUNTED)
    delivered: int  # messages acknowledged since the registration
    failures: int  # attempts failed in a row
    failing_since: datetime | None
    next_attempt_at: datetime | None  # when a failed delivery is tried again
    last_attempt_at: datetime | None
    last_outcome: str | None  # delivered, rejected, unreachable or not_allowed
    last_status: int | None  # the receiver's HTTP status, if it answered
    last_error: str | None


def shown_cursor(cursor: tuple[int, str]) -> str | None:
    return None if cursor == BEFORE_ALL else message_id(*cursor)


class Webhooks:
    def __init__(
        self,
        tables: WebhookTables,
        read_models: ReadModels,
        settings: Settings,
        clock: Callable[[], datetime],
        registry: CollectorRegistry,
        read_your_writes: Callable[[], None],
    ) -> None:
        self.tables = tables
        self._read_your_writes = read_your_writes
        self._read_models = read_models
        self.settings = settings
        self.allow = allowed_origins(settings.webhook_allow)
        self._clock = clock
        counter = Counter(
            "cardledger_webhook_deliveries",
            "Webhook delivery attempts by outcome: delivered (a 2xx answer), rejected (any other"
            " answer, redirects included), unreachable (no answer in time, or no connection),"
            " not_allowed (the target's origin is no longer in CARDLEDGER_WEBHOOK_ALLOW)",
            ["outcome"],
            registry=registry,
        )
        self._outcomes = {outcome: counter.labels(outcome=outcome) for outcome in OUTCOMES}
        # The jitter's draws: a generator of this instance's own (a test sets its own source).
        self.draw: Callable[[], float] = random.Random().random

    # --- the player's use cases ----------------------------------------------------------------

    def register(self, principal: Principal, url: str) -> RegisteredWebhook:
        """Register or replace the caller's webhook; the answer holds its new signing key."""
        player = listener(principal)
        url = check_target(url, self.allow)
        key = new_key()
        now = self._clock()
        self._read_your_writes()  # "from now on" counts every message made before this call
        start = self._read_models.latest_message(player) or BEFORE_ALL
        self.tables.register(player, url, key, uuid.uuid4().hex, now, start)
        row = self.tables.of(player)
        assert row is not None
        return RegisteredWebhook(
            url=url, signing_key=key, created_at=now, cursor=shown_cursor(row.cursor)
        )

    def status(self, principal: Principal) -> WebhookStatus:
        row = self._row(principal)
        return WebhookStatus(
            url=row.url,
            created_at=row.created_at,
            state=row.state,
            cursor=shown_cursor(row.cursor),
            pending=self.tables.pending(row, MOST_COUNTED),
            delivered=row.delivered,
            failures=row.failures,
            failing_since=row.failing_since,
            next_attempt_at=row.next_attempt_at,
            last_attempt_at=row.last_attempt_at,
            last_outcome=row.last_outcome,
            last_status=row.last_status,
            last_error=row.last_error,
        )

    def resume(self, principal: Principal) -> WebhookStatus:
        """Deliver again at once (after a pause, or to skip a wait between retries)."""
        if not self.tables.resume(listener(principal)):
            raise NO_WEBHOOK("you have no webhook")
        return self.status(principal)

    def remove(self, principal: Principal) -> None:
        if not self.tables.remove(listener(principal)):
            raise NO_WEBHOOK("you have no webhook")

    def _row(self, principal: Principal) -> WebhookRow:
        row = self.tables.of(listener(principal))
        if row is None:
            raise NO_WEBHOOK("you have no webhook")
        return row

    # --- what the deliverer records ------------------------------------------------------------

    def delivered(self, row: WebhookRow, to: tuple[int, str], attempt: Attempt) -> bool:
        self._outcomes[attempt.outcome].inc()
        return self.tables.delivered(row, to, attempt)

    def failed(self, row: WebhookRow, attempt: Attempt) -> None:
        """Note the failure; the next attempt after the backoff, or paused once it has failed
        for CARDLEDGER_WEBHOOK_GIVE_UP seconds."""
        self._outcomes[attempt.outcome].inc()
        since = row.failing_since or attempt.at
        give_up = attempt.at - since >= timedelta(seconds=self.settings.webhook_give_up)
        first, most = self.settings.webhook_retry_first, self.settings.webhook_retry_most
        wait = backoff(row.failures, first, most, self.draw)
        retry_at = attempt.at + timedelta(seconds=wait)
        self.tables.failed(row, attempt, retry_at, give_up=give_up)


class WebhookTotals:
    """For /metrics, counted when scraped (whichever process delivers): the messages waiting
    for a webhook and the webhooks paused as failing."""

    def __init__(self, tables: WebhookTables) -> None:
        self._tables = tables

    def collect(self) -> Iterable[Metric]:
        pending, failing = self._tables.totals(MOST_COUNTED)
        yield GaugeMetricFamily(
            "cardledger_webhook_pending_messages",
            f"Messages past their webhook's cursor, all players (counted up to {MOST_COUNTED:,})",
            value=pending,
        )
        yield GaugeMetricFamily(
            "cardledger_webhook_failing",
            "Webhooks paused after failing for CARDLEDGER_WEBHOOK_GIVE_UP seconds",
            value=failing,
        )
