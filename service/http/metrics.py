"""Metrics to scrape at `GET /metrics` (Prometheus text format): requests by route and status,
their latency, problems by code (refusals, limits, store failures), what the process holds, and
the series of the collectors it is given (service/telemetry.py: commands, refusals, store errors,
retries, live streams, the log's readers' lag).

Counts are per process, like the scraper expects of a target; `cardledger_process` names the
process by its `Cardledger-Instance` id. Scrape each replica (compose's each have an address of
their own); with `--workers N` behind one port, each scrape reaches one of the N.
"""

from __future__ import annotations

import time

from litestar.types import Scope
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.registry import Collector

from service.application.telemetry import Children
from service.auth import bearer_token, same_secret

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
CONTENT_TYPE = "text/plain; version=0.0.4"  # litestar adds "; charset=utf-8" to text/*


class Metrics:
    def __init__(self, instance: str, *collectors: Collector, token: str | None = None) -> None:
        self.token = token  # CARDLEDGER_METRICS_TOKEN: None leaves /metrics open
        self.registry = CollectorRegistry()
        Gauge(
            "cardledger_process",
            "This process (its Cardledger-Instance id)",
            ["id"],
            registry=self.registry,
        ).labels(id=instance).set(1)
        self.requests = Children(
            Counter(
                "cardledger_http_requests",
                "HTTP requests answered, by route and status",
                ["method", "route", "status"],
                registry=self.registry,
            )
        )
        self.latency = Children(
            Histogram(
                "cardledger_http_request_seconds",
                "Time from a request's arrival to its answer's start, by route",
                ["method", "route"],
                buckets=LATENCY_BUCKETS,
                registry=self.registry,
            )
        )
        self.problems = Children(
            Counter(
                "cardledger_problems",
                "Problem answers by stable code: rule refusals, bad input, limits, store failures",
                ["status", "code"],
                registry=self.registry,
            )
        )
        self.held = Gauge(
            "cardledger_held",
            "What this process holds now (games in memory, followed games)",
            ["what"],
            registry=self.registry,
        ).labels
        self.limits_fallbacks = Counter(
            "cardledger_limits_fallbacks",
            "Times this process counted a client's allowance alone because the shared limiter"
            " (CARDLEDGER_LIMITS_URL) did not answer, by count (rates, streams)",
            ["count"],
            registry=self.registry,
        )
        for collector in collectors:
            self.registry.register(collector)

    def count_limits_fallback(self, count: str) -> None:
        self.limits_fallbacks.labels(count=count).inc()

    def allows(self, authorization: str | None) -> bool:
        """Whether a scrape with this Authorization header may read the metrics."""
        if self.token is None:
            return True
        given = bearer_token(authorization)
        return given is not None and same_secret(given, self.token)

    def text(self) -> bytes:
        return generate_latest(self.registry)

    def answered(self, scope: Scope, status: int, started: float) -> None:
        """Counts an answer as it starts, and times it from ``started`` (``time.perf_counter``)."""
        method, route = str(scope.get("method", "")), route_of(scope)
        self.latency(method, route).observe(time.perf_counter() - started)
        self.requests(method, route, str(status)).inc()


def route_of(scope: Scope) -> str:
    """The route's template (`/games/{game_id}/commands`), never the raw path: one series per
    route, not per game."""
    return str(scope.get("path_template") or "unmatched")
