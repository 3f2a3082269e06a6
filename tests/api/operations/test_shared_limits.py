"""One allowance per client across processes and nodes (CARDLEDGER_LIMITS_URL): rates and live
streams counted in Redis; while Redis is away each process counts alone (fail open to the
per-process allowance, counted in /metrics) and goes back to the shared count when it returns."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from litestar.testing import TestClient

from service.http import allowance
from service.http.app import create_app
from service.settings import NO_LIMITS, Limits, Settings
from tests.support.redis import running_redis
from tests.support.servers import free_port, running_server, stream_held_open
from tests.support.threads import BOUND, wait_until

MOST_TRIES = 200  # requests, until both workers have answered
FIVE_A_MINUTE = msgspec.structs.replace(NO_LIMITS, per_address=5)


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    with running_redis(tmp_path) as url:
        yield url


def node(folder: Path, limits: Limits, url: str | None, stack: ExitStack) -> TestClient[Any]:
    """An API process of its own (its own store: only the allowance is shared)."""
    folder.mkdir()
    app = create_app(Settings(data_dir=folder, limits=limits, limits_url=url))
    return stack.enter_context(TestClient(app))


def statuses(client: TestClient[Any], times: int) -> list[int]:
    return [client.get("/variants").status_code for _ in range(times)]


def test_two_nodes_draw_on_one_allowance(tmp_path: Path, redis_url: str) -> None:
    with ExitStack() as stack:
        first = node(tmp_path / "a", FIVE_A_MINUTE, redis_url, stack)
        second = node(tmp_path / "b", FIVE_A_MINUTE, redis_url, stack)
        assert statuses(first, 3) + statuses(second, 2) == [200] * 5
        refused = second.get("/variants")
        assert (refused.status_code, refused.json()["code"]) == (429, "rate_limited")
        assert refused.headers["RateLimit-Remaining"] == "0"
        assert first.get("/variants").status_code == 429


def test_without_the_shared_limiter_each_node_counts_alone(tmp_path: Path) -> None:
    with ExitStack() as stack:
        first = node(tmp_path / "a", FIVE_A_MINUTE, None, stack)
        second = node(tmp_path / "b", FIVE_A_MINUTE, None, stack)
        assert statuses(first, 5) + statuses(second, 5) == [200] * 10
        assert first.get("/variants").status_code == 429


def fallbacks(client: TestClient[Any]) -> float:
    for line in client.get("/metrics").text.splitlines():
        if line.startswith('cardledger_limits_fallbacks_total{count="rates"}'):
            return float(line.split()[-1])
    return 0.0


def test_while_redis_is_away_each_node_counts_alone_then_shares_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(allowance, "RETRY_SECONDS", 0.2)
    port = free_port()
    limits = msgspec.structs.replace(NO_LIMITS, per_address=3)
    with ExitStack() as stack:
        with running_redis(tmp_path, port) as url:
            first = node(tmp_path / "a", limits, url, stack)
            second = node(tmp_path / "b", limits, url, stack)
            assert statuses(first, 2) == [200, 200]
        # Redis is gone: no 500, no hang; each node grants its own three.
        assert statuses(first, 4) == [200, 200, 200, 429]
        assert statuses(second, 4) == [200, 200, 200, 429]
        assert fallbacks(first) >= 1 and fallbacks(second) >= 1
        with running_redis(tmp_path, port):  # back, empty: the shared count starts afresh

            def shared_again() -> bool:
                return first.get("/variants").status_code == 200

            wait_until(shared_again, "the first node counted in Redis again")
            wait_until(lambda: second.get("/variants").status_code == 200, "the second too")
            # 2 of the 3 shared are spent (at least: retries while Redis was waking count too)
            assert statuses(first, 1) + statuses(second, 1) in ([200, 429], [429, 429])


@contextmanager
def two_workers(folder: Path, redis_url: str, limits: dict[str, str]) -> Iterator[str]:
    """`serve --workers 2` sharing ``limits`` (variable: value) through Redis."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARDLEDGER_LIMITS", "off")
        patch.setenv("CARDLEDGER_LIMITS_URL", redis_url)
        for name, value in limits.items():
            patch.setenv(name, value)
        with running_server(Settings(data_dir=folder), folder, workers=2) as base:
            yield base


def fresh_connection(base: str, path: str, auth: dict[str, str]) -> httpx.Response:
    """A request on a connection of its own, so that either worker may take it."""
    return httpx.get(base + path, headers=auth, timeout=BOUND)


def instances(answers: list[httpx.Response]) -> set[str]:
    """The worker processes that gave these answers."""
    return {answer.headers["Cardledger-Instance"] for answer in answers}


def player(base: str, name: str) -> dict[str, str]:
    token = httpx.post(f"{base}/players", json={"name": name}, timeout=BOUND).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def test_two_workers_grant_one_allowance_of_requests(tmp_path: Path, redis_url: str) -> None:
    with two_workers(tmp_path, redis_url, {"CARDLEDGER_LIMIT_PER_TOKEN": "5"}) as base:
        ann = player(base, "Ann")
        answers = [fresh_connection(base, "/games", ann) for _ in range(16)]
        while len(instances(answers)) < 2 and len(answers) < MOST_TRIES:  # a busy worker
            answers.append(fresh_connection(base, "/games", ann))  # may miss a few accepts
    assert [a.status_code for a in answers] == [200] * 5 + [429] * (len(answers) - 5)
    assert len(instances(answers)) == 2, "one worker answered all"


def test_two_workers_grant_one_allowance_of_streams(tmp_path: Path, redis_url: str) -> None:
    with two_workers(tmp_path, redis_url, {"CARDLEDGER_LIMIT_STREAMS_PER_TOKEN": "1"}) as base:
        ben = player(base, "Ben")
        with stream_held_open(f"{base}/players/me/stream", ben):
            refusals = [fresh_connection(base, "/players/me/stream", ben) for _ in range(8)]
            while len(instances(refusals)) < 2 and len(refusals) < MOST_TRIES:
                refusals.append(fresh_connection(base, "/players/me/stream", ben))
    assert {(r.status_code, r.json()["code"]) for r in refusals} == {(429, "too_many_streams")}
    assert len(instances(refusals)) == 2
