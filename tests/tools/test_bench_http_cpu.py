"""The http section's CPU accounting: whose CPU a run took, and the rate it allows."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import psutil
import psycopg
import pytest

from service.settings import Settings
from service.store.postgres.listener import conninfo
from service.tools.bench import http_cpu
from service.tools.bench.http_cpu import Meter, Spent, backends, carried, process_tree


def test_a_meter_counts_its_process_tree_and_children_started_during_it() -> None:
    meter = Meter(process_tree(os.getpid()))
    own = time.process_time()
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; sum(range(10**7)); print(flush=True); sys.stdin.read()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        sum(range(10**7))
        assert child.stdout is not None and child.stdout.readline() == b"\n"
        spent = meter.stop()
        child_times = psutil.Process(child.pid).cpu_times()
        own = time.process_time() - own
    finally:
        child.communicate(b"", timeout=60)
    assert spent >= child_times.user + child_times.system + 0.9 * own > 0


def test_the_rate_carried_is_bound_by_the_cores_and_by_a_core_a_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(http_cpu, "cores", lambda: 2)
    assert carried(2, server=2.0, others=1.5) == pytest.approx(1000 * 2 / 3.5)
    assert carried(1, server=2.0, others=0.5) == pytest.approx(1000 / 2.0), "one worker, one core"
    assert carried(4, server=0.5, others=0.5) == pytest.approx(2000), "workers past the cores"


def test_ceiling_figures_put_the_bare_endpoint_in_place_of_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(http_cpu, "cores", lambda: 2)
    spent = Spent(server=2.0, database=1.0, client=0.5, commands=1000, requests=2500)
    server, measured, bare = http_cpu.ceiling_figures("here", 2, spent, 0.0001, library=500)
    assert server.value == pytest.approx(2.0) and server.baseline_value == pytest.approx(0.25)
    assert measured.value == pytest.approx(1000 * 2 / 3.5) and measured.baseline_value == 500
    assert bare.value == pytest.approx(1000 * 2 / 1.75)


@pytest.mark.postgres
def test_backends_are_the_database_s_own(postgres_url: str, tmp_path: Path) -> None:
    settings = Settings(database_url=postgres_url, data_dir=tmp_path)
    with psycopg.connect(conninfo(postgres_url)) as connection:
        row = connection.execute("SELECT pg_backend_pid()").fetchone()
        assert row is not None
        assert row[0] in {process.pid for process in backends(settings)()}
    assert backends(Settings(data_dir=tmp_path))() == [], "SQLite has none"
