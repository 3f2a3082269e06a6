"""What the service counts for `GET /metrics`, beside the HTTP layer's own series: commands by
variant and outcome, refusals by code, store errors, work done again, live streams open, and
how far the readers of the notification log are behind it.

One `Telemetry` per `Cardledger`, each with a registry of its own (tests make many in one
process). The children of labelled families are made once and kept: `.labels()` builds its key
and takes a lock on every call, and a command is CPU-bound.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Generic, TypeVar

from eventsourcing.persistence import PersistenceError
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from domain.errors import RuleViolation
from domain.variants import VARIANTS, command_tags
from service.errors import TOO_MUCH_CONTENTION, ApiError
from service.store.event_store import Store
from service.store.unit_of_work import Outcome
from service.worker import WorkerHealth

M = TypeVar("M", Counter, Histogram)

MOST_COUNTED = 100_000  # events behind: a scrape counts no further
HELD_SECONDS_HELP = (
    "How long the oldest writer of the event log still in flight has been open (0: none); every"
    " reader of the log waits for it, and the service's own log names it"
)

COMMANDS_HELP = (
    "Commands decided, by variant, command (create, join, cancel, expire, or the type sent) and"
    " outcome: applied (its events were written); unchanged (nothing to write, confirmed on the"
    " stored game: an expiry with nothing due); replayed (a retry with its Idempotency-Key answered"
    " from the receipt, nothing written); refused (a rule, If-Match or a reused key said no: see"
    " cardledger_command_refusals_total); contended (given up after version conflicts, 503"
    " too_much_contention); failed (an error ended it, the store's most often: see"
    " cardledger_store_errors_total; a write whose answer was lost may have landed)"
)
REFUSALS_HELP = (
    "Refused commands by variant and the refusal's code (sent, joins, cancellations and server"
    " expiries alike); cardledger_problems_total counts the answers, by HTTP status"
)
STORE_ERRORS_HELP = (
    "Failed calls to the store, by kind: no_connection (PostgreSQL: none to be had in time,"
    " nothing was sent); outcome_unknown (PostgreSQL: a statement was sent, then its connection"
    " failed or went silent: a write may have landed); database_error (PostgreSQL refused a"
    " statement); write_lock_timeout (SQLite: another connection held the write lock too long,"
    " nothing was written); write_failed (SQLite: a write transaction failed, nothing of it"
    " was written)"
)
RETRIES_HELP = (
    "Work done again, or waited for, by kind: version_conflict (a command's game moved on"
    " before its save: decided again); stale_copy (a refusal or nothing to do, decided on this"
    " process's copy of the game, which the store showed was behind: decided again);"
    " write_lock_wait (SQLite: the writer waited for another connection's write lock);"
    " queue_conflict (a matchmaking queue moved on before its save: decided again),"
    " rematch_conflict (a rematch moved on before its save: decided again)"
)
LAG_EVENTS_HELP = (
    "Game events in the log past a reader's position, counted when scraped (at most"
    f" {MOST_COUNTED:,}): read_models is the position stored with the read models, whichever"
    " process projects (with CARDLEDGER_PROJECTOR=external, another); log_follower is this"
    " process's follower, which feeds deadlines and live streams"
)
LAG_SECONDS_HELP = (
    "How long ago the first game event a reader has yet to take was decided, when scraped (0:"
    " it has taken every one); by the event's own timestamp, stamped just before its commit"
)


def variant_label(variant: str) -> str:
    """The variant asked for, if there is one: labels stay few whatever a client sends."""
    return variant if variant in VARIANTS else "unknown"


def command_type(body: object) -> str:
    """The type of command sent, if some variant knows it (else "unknown")."""
    kind = body.get("type") if isinstance(body, dict) else None
    return kind if isinstance(kind, str) and kind in command_tags() else "unknown"


class Children(Generic[M]):
    """A labelled family's children, each made on first use and kept."""

    def __init__(self, family: M) -> None:
        self._family: M = family
        self._made: dict[tuple[str, ...], M] = {}

    def __call__(self, *values: str) -> M:
        child = self._made.get(values)
        if child is None:  # two threads may both make it: labels() hands both the same one
            child = self._made[values] = self._family.labels(*values)
        return child


class Counting:
    """Counts the command run inside it by what became of it: the ``outcome`` set on it, or
    what it raised (a refusal by its code, given up for contention, or failed). A class rather
    than a generator: a refusal leaves it without a generator's throw."""

    def __init__(self, telemetry: Telemetry, variant: str, command: str) -> None:
        self._telemetry = telemetry
        self._variant = variant
        self._command = command
        self.outcome = Outcome.FAILED

    def __enter__(self) -> Counting:
        return self

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> None:
        variant, command = self._variant, self._command
        if error is None:
            self._telemetry.command(variant, command, self.outcome)
        elif isinstance(error, RuleViolation | ApiError):
            if error.code == TOO_MUCH_CONTENTION.code:
                self._telemetry.command(variant, command, Outcome.CONTENDED)
            else:
                self._telemetry.refused(variant, command, error.code)
        else:
            self._telemetry.command(variant, command, Outcome.FAILED)


class Telemetry:
    """The counts the application and the store report to, and the streams gauge."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self._commands = Children(
            Counter(
                "cardledger_commands",
                COMMANDS_HELP,
                ["variant", "command", "outcome"],
                registry=self.registry,
            )
        )
        self._refusals = Children(
            Counter(
                "cardledger_command_refusals",
                REFUSALS_HELP,
                ["variant", "code"],
                registry=self.registry,
            )
        )
        self._store_errors = Children(
            Counter("cardledger_store_errors", STORE_ERRORS_HELP, ["kind"], registry=self.registry)
        )
        self._retries = Children(
            Counter("cardledger_retries", RETRIES_HELP, ["kind"], registry=self.registry)
        )
        self._streams = Gauge(
            "cardledger_live_streams",
            "Live streams (Server-Sent Events) open in this process, read when scraped",
            registry=self.registry,
        )

    def count_streams(self, open_streams: Callable[[], int]) -> None:
        """Read the live streams gauge from ``open_streams`` when scraped."""
        self._streams.set_function(open_streams)

    def counting(self, variant: str, command: str) -> Counting:
        """``with telemetry.counting(variant, command) as count: ...; count.outcome = ...``"""
        return Counting(self, variant, command)

    def command(self, variant: str, command: str, outcome: Outcome) -> None:
        self._commands(variant, command, outcome).inc()

    def refused(self, variant: str, command: str, code: str) -> None:
        self._commands(variant, command, Outcome.REFUSED).inc()
        self._refusals(variant, code).inc()

    def store_error(self, kind: str) -> None:
        self._store_errors(kind).inc()

    def retry(self, kind: str) -> None:
        self._retries(kind).inc()


class LogLag:
    """A collector of how far each reader of the notification log is behind it: a few queries
    per scrape, nothing per event. ``readers`` give their positions (None: not started)."""

    def __init__(
        self,
        store: Store,
        readers: Mapping[str, Callable[[], int | None]],
        clock: Callable[[], datetime],
    ) -> None:
        self._store = store
        self._readers = readers
        self._clock = clock

    def collect(self) -> Iterable[Metric]:
        events = GaugeMetricFamily(
            "cardledger_projection_lag_events", LAG_EVENTS_HELP, labels=["reader"]
        )
        seconds = GaugeMetricFamily(
            "cardledger_projection_lag_seconds", LAG_SECONDS_HELP, labels=["reader"]
        )
        held = GaugeMetricFamily("cardledger_log_held_seconds", HELD_SECONDS_HELP)
        try:
            holdup = self._store.writer.holdup()
        except PersistenceError:
            return [events, seconds]  # the store is away (its errors are counted)
        held.add_metric([], 0.0 if holdup is None else holdup.open_seconds or 0.0)
        for reader, position_of in self._readers.items():
            try:
                position = position_of()
                if position is None:
                    continue
                behind = self._store.game_events_after(position, MOST_COUNTED)
                first = self._store.first_game_event_after(position) if behind else None
            except PersistenceError:
                break  # the store is away (its errors are counted): no figures, not wrong ones
            age = 0.0 if first is None else (self._clock() - first.timestamp).total_seconds()
            events.add_metric([reader], behind)
            seconds.add_metric([reader], max(0.0, age))  # another process's clock may be ahead
        return [events, seconds, held]


class WorkerCollector:
    """A collector of the background workers' health, read when scraped."""

    def __init__(self, health: Callable[[], list[WorkerHealth]]) -> None:
        self._health = health

    def collect(self) -> Iterable[Metric]:
        alive = GaugeMetricFamily(
            "cardledger_worker_alive",
            "Background workers of this process: 1 while the thread runs",
            labels=["worker"],
        )
        failing = GaugeMetricFamily(
            "cardledger_worker_failing",
            "1 while a background worker's latest step failed (it retries after a pause)",
            labels=["worker"],
        )
        failures = CounterMetricFamily(
            "cardledger_worker_failures",
            "Steps of a background worker that failed, since the process started",
            labels=["worker"],
        )
        for health in self._health():
            alive.add_metric([health.name], int(health.alive))
            failing.add_metric([health.name], int(health.failing))
            failures.add_metric([health.name], health.failures)
        return [alive, failing, failures]
