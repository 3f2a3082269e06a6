"""Delivers players' messages to their webhooks, one process at a time.

Every API process runs a deliverer; only the holder of the "webhooks" leader lock works (the
lock dies with its process or session, and a standby takes over). For each webhook due, it
POSTs the messages past the webhook's cursor in id order, one at a time, and moves the cursor
past a message only once the receiver answered it 2xx (service/read_models/webhook_tables.py,
a compare-and-set). So a crash or kill at any moment loses nothing and repeats at most the
message in flight, and a receiver that answered may still see that one again: at least once,
with the message id as the idempotency key (``Webhook-Id``).

The lock is not what makes this safe: if two processes ever delivered together (a leader whose
session died unnoticed), the compare-and-set lets one cursor move win, and the worst case is a
message sent twice, which at-least-once allows. The HTTP calls are blocking calls on a small
pool of threads of the deliverer's own (one webhook to one thread at a time, so a slow
receiver holds up only its own messages), never on the event loop.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

import httpcore
import httpx
import msgspec

from projections.player_messages import PlayerMessage, parse_message_id
from service.application.messaging.webhook_targets import permitted, signature
from service.application.messaging.webhooks import Webhooks
from service.background.attempt_deadline import Deadline, DeadlineBackend
from service.background.projector import LeaderRunner
from service.read_models.models import ReadModels
from service.read_models.webhook_tables import ACTIVE, Attempt, WebhookRow
from service.store.locks import LeaderLock
from service.store.readers.changes import Changes

log = logging.getLogger("cardledger.webhooks")
WEBHOOKS_PER_PASS = 50  # then the pass ends, and the next one begins with the longest waiting
MESSAGES_PER_VISIT = 20  # then the other webhooks due get their turn
AT_ONCE = 8  # webhooks delivered to at the same time: a slow receiver holds up only its own
POLL_SECONDS = 0.5  # messages another process's projector wrote are seen this late at most
MAX_ERROR = 200  # characters of an error kept for the player to see
USER_AGENT = "cardledger-webhooks/1"
UNREACHABLE = (
    httpcore.TimeoutException,
    httpcore.NetworkError,
    httpcore.ProtocolError,
    httpcore.UnsupportedProtocol,
)


class WebhookDeliverer:
    def __init__(
        self,
        webhooks: Webhooks,
        read_models: ReadModels,
        clock: Callable[[], datetime],
    ) -> None:
        self._webhooks = webhooks
        self._read_models = read_models
        self._clock = clock
        self._timeout = float(webhooks.settings.webhook_timeout)
        self._deadline = Deadline()
        self._extensions = {
            "timeout": dict.fromkeys(("connect", "read", "write", "pool"), self._timeout)
        }
        # httpcore, not httpx's client: its network backend is where one deadline bounds the
        # whole attempt. It never follows a redirect (a 3xx is a failure: the allow-list names
        # where we call, not where we are sent) nor reads proxies or netrc from the environment.
        self._connections = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(trust_env=False),
            max_connections=AT_ONCE,
            network_backend=DeadlineBackend(self._deadline),
        )
        self._pool = ThreadPoolExecutor(AT_ONCE, thread_name_prefix="webhook")
        self._busy: set[str] = set()  # players whose webhook a thread of the pool is visiting
        self._lock = threading.Lock()
        self.wake: Callable[[], None] = lambda: None  # the runner's, once it has one
        self._next_look = 0.0  # time.monotonic() of the next look for any webhook at all
        self._registered = True  # whether the last look found one

    def catch_up(self) -> float:
        """Hand the webhooks due to the pool, each to one thread at a time (its messages go
        in order); the seconds until the next pass."""
        now = time.monotonic()
        if now >= self._next_look:
            self._next_look = now + POLL_SECONDS
            self._registered = self._webhooks.tables.any_active()
        if not self._registered:
            # Woken by new messages, but nobody had a webhook at the last look: nothing to send
            # (most deployments have none; a webhook registered since is found within a poll).
            return self._next_look - now
        for row in self._webhooks.tables.due(self._clock(), WEBHOOKS_PER_PASS):
            with self._lock:
                if row.player_id in self._busy or len(self._busy) >= AT_ONCE:
                    continue
                self._busy.add(row.player_id)
            self._pool.submit(self._deliver, row)
        soonest = self._webhooks.tables.soonest_retry()
        if soonest is None:
            return POLL_SECONDS
        return max(0.0, min(POLL_SECONDS, (soonest - self._clock()).total_seconds()))

    def _deliver(self, listed: WebhookRow) -> None:
        visited = False
        try:
            # Read again, now that this thread alone visits it: the pass's list may predate a
            # visit that ended since (its cursor moved, or its next attempt was put off).
            row = self._webhooks.tables.of(listed.player_id)
            if row is not None and row.registration == listed.registration and self.due(row):
                self.visit(row)
            visited = True
        except Exception:  # the store was away: a later pass finds the webhook due again
            log.exception("could not deliver to the webhook of %s; trying again", listed.player_id)
        finally:
            with self._lock:
                self._busy.discard(listed.player_id)
        if visited:
            self.wake()  # its next messages, or another webhook's turn (not after a failure:
            # the poll retries it, rather than a loop as fast as the store fails)

    def due(self, row: WebhookRow) -> bool:
        waited = row.next_attempt_at is None or row.next_attempt_at <= self._clock()
        return row.state == ACTIVE and waited

    def visit(self, row: WebhookRow) -> int:
        """Deliver the webhook's next messages in order until one fails; how many went."""
        messages = self._read_models.messages_of(
            row.player_id, after=row.cursor, limit=MESSAGES_PER_VISIT
        )
        sent = 0
        for message in messages:
            attempt = self.attempt(row, message)
            if attempt.outcome != "delivered":
                self._webhooks.failed(row, attempt)
                return sent
            to = parse_message_id(message.id)
            assert to is not None
            if not self._webhooks.delivered(row, to, attempt):
                return sent  # replaced, deleted, or moved by another deliverer: look again
            row = msgspec.structs.replace(row, cursor=to, failures=0, failing_since=None)
            sent += 1
        return sent

    def attempt(self, row: WebhookRow, message: PlayerMessage) -> Attempt:
        """POST one message, signed; what came of it."""
        if not permitted(row.url, self._webhooks.allow):
            return Attempt(
                at=self._clock(),
                outcome="not_allowed",
                status=None,
                error="the operator's allow-list no longer allows this URL",
            )
        body = msgspec.json.encode(message)
        timestamp = int(self._clock().timestamp())
        headers = [
            ("Content-Type", "application/json"),
            ("User-Agent", USER_AGENT),
            ("Webhook-Id", message.id),
            ("Webhook-Timestamp", str(timestamp)),
            ("Webhook-Signature", signature(row.signing_key, timestamp, body)),
        ]
        try:
            # Streamed and closed unread: a receiver's answer body is never loaded (a huge one
            # cannot fill our memory), only its status matters. CARDLEDGER_WEBHOOK_TIMEOUT
            # bounds the whole attempt, however slowly the receiver sends its answer.
            with (
                self._deadline.within(self._timeout),
                self._connections.stream(
                    "POST", row.url, content=body, headers=headers, extensions=self._extensions
                ) as answer,
            ):
                status = answer.status
        except UNREACHABLE as error:
            log.info("webhook of %s unreachable: %s", row.player_id, error)
            text = f"{type(error).__name__}: {error}"[:MAX_ERROR]
            return Attempt(at=self._clock(), outcome="unreachable", status=None, error=text)
        if 200 <= status < 300:
            return Attempt(at=self._clock(), outcome="delivered", status=status, error=None)
        return Attempt(
            at=self._clock(), outcome="rejected", status=status, error=f"answered {status}"
        )

    def close(self) -> None:
        """After the runner has stopped: the visits under way end (within the timeout)."""
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._connections.close()


def webhook_runner(
    deliverer: WebhookDeliverer, messages_written: Changes, leader: LeaderLock
) -> LeaderRunner:
    """The runner: woken when this process's projector has written players' messages (not by
    every game write, which alone gives it nothing to send: its two queries per command were a
    tenth of a command's instructions on PostgreSQL), and polling, as a projector in another
    process may write messages unannounced."""
    runner = LeaderRunner(
        "webhooks", deliverer.catch_up, messages_written, leader, interval=POLL_SECONDS
    )
    deliverer.wake = runner.worker.wake
    return runner
