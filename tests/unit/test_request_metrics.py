"""The requests answered and their latency as Prometheus reads them (service/http/metrics.py
``Answers``): counts by method, route and status, a histogram whose buckets hold every answer
at or under their bound, its count and sum."""

from __future__ import annotations

import time

from prometheus_client.parser import text_string_to_metric_families

from service.http.metrics import LATENCY_BUCKETS, Metrics

COMMANDS = {"method": "POST", "path_template": "/games/{game_id}/commands"}


def scraped(metrics: Metrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(metrics.text().decode())
        for sample in family.samples
    }


def test_answers_are_counted_by_route_and_status_and_timed() -> None:
    metrics = Metrics("test")
    now = time.perf_counter()
    for taken, status in ((0.0005, 200), (0.004, 200), (0.004, 409), (30.0, 200)):
        metrics.answered(COMMANDS, status, now - taken)
    metrics.answered({"method": "GET"}, 404, now)  # no route matched
    seen = scraped(metrics)
    route = (("method", "POST"), ("route", "/games/{game_id}/commands"))

    def counted(status: str) -> float:
        labels = tuple(sorted((*route, ("status", status))))
        return seen["cardledger_http_requests_total", labels]

    assert (counted("200"), counted("409")) == (3.0, 1.0)
    unmatched = (("method", "GET"), ("route", "unmatched"), ("status", "404"))
    assert seen["cardledger_http_requests_total", unmatched] == 1.0

    def bucket(bound: str) -> float:
        return seen[
            "cardledger_http_request_seconds_bucket", tuple(sorted((*route, ("le", bound))))
        ]

    assert bucket("0.001") == 1.0
    assert bucket("0.0025") == 1.0
    assert bucket("0.005") == 3.0
    assert bucket(str(float(LATENCY_BUCKETS[-1]))) == 3.0
    assert bucket("+Inf") == 4.0
    assert seen["cardledger_http_request_seconds_count", route] == 4.0
    assert 30.008 <= seen["cardledger_http_request_seconds_sum", route] < 31.0
