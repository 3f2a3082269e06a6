"""Players' webhooks: one row per player, with where its deliveries stand.

Not a read model: nothing here is derived from the log, so a rebuild of the read models
(a new SCHEMA_VERSION) leaves this table alone. The outbox is the player's message rows
themselves (message_tables.py), already durable and committed with the log position they
reflect; a webhook only keeps its cursor, the id (position, kind) of the last message its
receiver acknowledged. Message ids do not change when the messages are rebuilt, so the cursor
stays right across a rebuild.

Every change the deliverer makes is conditional on the registration it was working for (a
player may replace or delete the webhook meanwhile) and on the cursor it read (compare-and-set:
two deliverers can never move a cursor backwards or past a message neither delivered).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import msgspec

from service.store.event_store import Store

ACTIVE = "active"
FAILING = "failing"  # paused after failing too long: waits for its player
COLUMNS = (
    "player_id, url, signing_key, registration, created_at, cursor_position, cursor_kind,"
    " state, failures, failing_since, next_attempt_at, last_attempt_at, last_outcome,"
    " last_status, last_error, delivered"
)


class WebhookRow(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    url: str
    signing_key: str
    registration: str  # a new one at each PUT: a deliverer's late update to a replaced one is void
    created_at: datetime
    cursor: tuple[int, str]  # the last message acknowledged (0, "": none yet)
    state: str
    failures: int  # deliveries failed in a row
    failing_since: datetime | None
    next_attempt_at: datetime | None  # None: at once
    last_attempt_at: datetime | None
    last_outcome: str | None
    last_status: int | None
    last_error: str | None
    delivered: int


class Attempt(msgspec.Struct, frozen=True, kw_only=True):
    """What one delivery attempt came to, to record."""

    at: datetime
    outcome: str  # delivered, rejected (an answer not 2xx), unreachable, not_allowed
    status: int | None
    error: str | None


def _stamp(moment: datetime | None) -> str | None:
    # A fixed format, so the text sorts as the time does (isoformat drops zero microseconds).
    return None if moment is None else moment.isoformat(timespec="microseconds")


def _moment(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _row(found: Any) -> WebhookRow:
    return WebhookRow(
        player_id=found["player_id"],
        url=found["url"],
        signing_key=found["signing_key"],
        registration=found["registration"],
        created_at=datetime.fromisoformat(found["created_at"]),
        cursor=(int(found["cursor_position"]), found["cursor_kind"]),
        state=found["state"],
        failures=int(found["failures"]),
        failing_since=_moment(found["failing_since"]),
        next_attempt_at=_moment(found["next_attempt_at"]),
        last_attempt_at=_moment(found["last_attempt_at"]),
        last_outcome=found["last_outcome"],
        last_status=None if found["last_status"] is None else int(found["last_status"]),
        last_error=found["last_error"],
        delivered=int(found["delivered"]),
    )


class WebhookTables:
    """Made by the read models' Tables (which share their SQL and connections), but never
    dropped with them."""

    def __init__(self, sql: Callable[[str], str], store: Store) -> None:
        self._sql = sql
        self._store = store

    def create(self, cursor: Any) -> None:
        cursor.execute(
            self._sql(
                "CREATE TABLE IF NOT EXISTS {webhooks} ("
                "player_id TEXT PRIMARY KEY, url TEXT NOT NULL, signing_key TEXT NOT NULL,"
                " registration TEXT NOT NULL, created_at TEXT NOT NULL,"
                " cursor_position BIGINT NOT NULL, cursor_kind TEXT NOT NULL,"
                " state TEXT NOT NULL, failures INTEGER NOT NULL, failing_since TEXT,"
                " next_attempt_at TEXT, last_attempt_at TEXT, last_outcome TEXT,"
                " last_status INTEGER, last_error TEXT, delivered BIGINT NOT NULL)"
            )
        )

    # --- the player's side ---------------------------------------------------------------------

    def register(
        self, player_id: str, url: str, key: str, registration: str, now: datetime, start: Any
    ) -> None:
        """Register (cursor at ``start``) or replace (cursor kept): a new key and a fresh
        start of the retries either way."""

        def write(cursor: Any) -> None:
            cursor.execute(
                self._sql(
                    f"INSERT INTO {{webhooks}} ({COLUMNS}) VALUES ({', '.join(['{p}'] * 16)})"
                    " ON CONFLICT (player_id) DO UPDATE SET url = excluded.url,"
                    " signing_key = excluded.signing_key, registration = excluded.registration,"
                    " created_at = excluded.created_at, state = excluded.state, failures = 0,"
                    " failing_since = NULL, next_attempt_at = NULL"
                ),
                (
                    player_id,
                    url,
                    key,
                    registration,
                    _stamp(now),
                    start[0],
                    start[1],
                    ACTIVE,
                    0,
                    None,
                    None,
                    None,
                    None,
                    None,
                    None,
                    0,
                ),
            )

        self._store.transact(write)

    def remove(self, player_id: str) -> bool:
        def write(cursor: Any) -> bool:
            cursor.execute(
                self._sql("DELETE FROM {webhooks} WHERE player_id = {p} RETURNING player_id"),
                (player_id,),
            )
            return cursor.fetchone() is not None

        return bool(self._store.transact(write))

    def resume(self, player_id: str) -> bool:
        """Active again, retried at once; False if the player has no webhook."""

        def write(cursor: Any) -> bool:
            cursor.execute(
                self._sql(
                    "UPDATE {webhooks} SET state = {p}, failures = 0, failing_since = NULL,"
                    " next_attempt_at = NULL WHERE player_id = {p} RETURNING player_id"
                ),
                (ACTIVE, player_id),
            )
            return cursor.fetchone() is not None

        return bool(self._store.transact(write))

    def of(self, player_id: str) -> WebhookRow | None:
        found = self._store.row(
            self._sql(f"SELECT {COLUMNS} FROM {{webhooks}} WHERE player_id = {{p}}"), (player_id,)
        )
        return None if found is None else _row(found)

    def pending(self, row: WebhookRow, most: int) -> int:
        """How many of the player's messages are past the cursor (counted up to ``most``)."""
        position, kind = row.cursor
        query = (
            "SELECT COUNT(*) AS pending FROM (SELECT 1 FROM {messages} WHERE player_id = {p}"
            " AND (position > {p} OR (position = {p} AND kind > {p}))"
            f" LIMIT {int(most)}) AS waiting"
        )
        found = self._store.row(self._sql(query), (row.player_id, position, position, kind))
        return int(found["pending"])

    # --- the deliverer's side ------------------------------------------------------------------

    def due(self, now: datetime, limit: int) -> list[WebhookRow]:
        """Active webhooks whose next attempt is due and that have a message past the cursor."""
        query = (
            f"SELECT {COLUMNS} FROM {{webhooks}} AS w WHERE state = {{p}}"
            " AND (next_attempt_at IS NULL OR next_attempt_at <= {p})"
            " AND EXISTS (SELECT 1 FROM {messages} AS m WHERE m.player_id = w.player_id"
            " AND (m.position > w.cursor_position"
            " OR (m.position = w.cursor_position AND m.kind > w.cursor_kind)))"
            f" ORDER BY next_attempt_at, player_id LIMIT {int(limit)}"
        )
        return [_row(found) for found in self._store.rows(self._sql(query), (ACTIVE, _stamp(now)))]

    def any_active(self) -> bool:
        """Whether any webhook is active (so that messages may be due)."""
        found = self._store.row(
            self._sql("SELECT 1 FROM {webhooks} WHERE state = {p} LIMIT 1"), (ACTIVE,)
        )
        return found is not None

    def soonest_retry(self) -> datetime | None:
        """When the next waiting retry of an active webhook falls due, if one waits."""
        query = (
            "SELECT MIN(next_attempt_at) AS soonest FROM {webhooks}"
            " WHERE state = {p} AND next_attempt_at IS NOT NULL"
        )
        found = self._store.row(self._sql(query), (ACTIVE,))
        return _moment(found["soonest"])

    def delivered(self, row: WebhookRow, to: tuple[int, str], attempt: Attempt) -> bool:
        """Move the cursor from where ``row`` had it to ``to``; False if it had moved, or the
        registration was replaced or deleted meanwhile (nothing changes then)."""

        def write(cursor: Any) -> bool:
            cursor.execute(
                self._sql(
                    "UPDATE {webhooks} SET cursor_position = {p}, cursor_kind = {p},"
                    " failures = 0, failing_since = NULL, next_attempt_at = NULL,"
                    " last_attempt_at = {p}, last_outcome = {p}, last_status = {p},"
                    " last_error = NULL, delivered = delivered + 1"
                    " WHERE player_id = {p} AND registration = {p}"
                    " AND cursor_position = {p} AND cursor_kind = {p} RETURNING player_id"
                ),
                (
                    to[0],
                    to[1],
                    _stamp(attempt.at),
                    attempt.outcome,
                    attempt.status,
                    row.player_id,
                    row.registration,
                    row.cursor[0],
                    row.cursor[1],
                ),
            )
            return cursor.fetchone() is not None

        return bool(self._store.transact(write))

    def failed(
        self, row: WebhookRow, attempt: Attempt, retry_at: datetime, *, give_up: bool
    ) -> None:
        """Note a failed attempt: the next one at ``retry_at``, or none (paused) if ``give_up``."""

        def write(cursor: Any) -> None:
            cursor.execute(
                self._sql(
                    "UPDATE {webhooks} SET failures = failures + 1,"
                    " failing_since = COALESCE(failing_since, {p}), next_attempt_at = {p},"
                    " state = {p}, last_attempt_at = {p}, last_outcome = {p}, last_status = {p},"
                    " last_error = {p} WHERE player_id = {p} AND registration = {p}"
                ),
                (
                    _stamp(attempt.at),
                    _stamp(retry_at),
                    FAILING if give_up else ACTIVE,
                    _stamp(attempt.at),
                    attempt.outcome,
                    attempt.status,
                    attempt.error,
                    row.player_id,
                    row.registration,
                ),
            )

        self._store.transact(write)

    def totals(self, most: int) -> tuple[int, int]:
        """(messages waiting for any active or failing webhook, counted up to ``most``;
        webhooks paused as failing), for /metrics."""
        waiting = (
            "SELECT COUNT(*) AS pending FROM (SELECT 1 FROM {webhooks} AS w JOIN {messages} AS m"
            " ON m.player_id = w.player_id AND (m.position > w.cursor_position"
            " OR (m.position = w.cursor_position AND m.kind > w.cursor_kind))"
            f" LIMIT {int(most)}) AS waiting"
        )
        with self._store.reading() as cursor:  # both counts in one snapshot
            cursor.execute(self._sql(waiting))
            pending = int(cursor.fetchone()["pending"])
            cursor.execute(
                self._sql("SELECT COUNT(*) AS failing FROM {webhooks} WHERE state = {p}"),
                (FAILING,),
            )
            failing = int(cursor.fetchone()["failing"])
        return pending, failing
