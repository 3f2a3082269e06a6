"""A Redis server of a test's own (for the shared limiter): on a free port of 127.0.0.1, keeping
nothing on disk, stopped however the test ends. Redis is on every machine this project runs on;
CI requires it (CARDLEDGER_REQUIRE_REDIS=1), elsewhere its tests are skipped without it."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis

from tests.support.servers import free_port, start_process, stop_process

REQUIRE_REDIS = os.environ.get("CARDLEDGER_REQUIRE_REDIS") == "1"
START_WITHIN = 30  # seconds


def redis_binary() -> str:
    found = shutil.which("redis-server")
    if found is None:
        if REQUIRE_REDIS:
            pytest.fail(
                "Redis is required (CARDLEDGER_REQUIRE_REDIS=1) but redis-server is missing"
            )
        pytest.skip("redis-server is not installed")
    return found


@contextmanager
def running_redis(folder: Path, port: int | None = None) -> Iterator[str]:
    """A redis-server on ``port`` (a free one if None); yields its URL once it answers."""
    port = port or free_port()
    command = [redis_binary(), "--port", str(port), "--bind", "127.0.0.1"]
    command += ["--save", "", "--appendonly", "no", "--dir", str(folder)]
    process = start_process(command, env=dict(os.environ), log=folder / f"redis-{port}.log")
    url = f"redis://127.0.0.1:{port}/0"
    try:
        give_up = time.monotonic() + START_WITHIN
        while not answers(url):
            if process.poll() is not None or time.monotonic() > give_up:
                raise RuntimeError(f"redis-server on {port} did not start")
            time.sleep(0.05)
        yield url
    finally:
        stop_process(process)


def answers(url: str) -> bool:
    try:
        with redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1) as client:
            return bool(client.ping())
    except redis.RedisError:
        return False
