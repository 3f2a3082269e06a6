"""Section "http": commands over HTTP, 1/16/64 concurrent games, both stores, 1 and 2 workers.

The load is `cardledger simulate`'s (service/tools/load.py): 2-seat Open Hand games played to the
end, each game's moves one after another, each move a `GET /view` and a `POST /commands` (what a
client that reads its view does), N games at once on N keep-alive connections. Anyone can re-run
it against any URL: `cardledger simulate --seats 2 --games 512 --concurrency 64`.

Baselines from the same run: a bare litestar POST endpoint (service/tools/bench/bare.py) driven
by the same client at the same concurrency; the eventsourcing library's plain get+save loop with
as many threads as games; raw single-row inserts with as many clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from typing import NamedTuple

import httpx

from service.settings import Settings
from service.tools.bench.figures import Figure
from service.tools.bench.http_cpu import Meter, Spent, ceiling_figures, metered, process_tree
from service.tools.bench.stores import (
    STORES,
    fresh_store,
    library_loop,
    postgres_available,
    raw_inserts,
)
from service.tools.load import hammer, play_games
from service.tools.simulate import LoadReport

CONCURRENCY = (1, 16, 64)
WORKERS = (1, 2)
BARE_BODY = b'{"type":"play","card":"QS"}'


def games_for(concurrency: int, quick: bool) -> int:
    return max(4, concurrency) if quick else max(40, 8 * concurrency)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Served(NamedTuple):
    url: str
    process: subprocess.Popen[bytes]


@contextlib.contextmanager
def server(
    command: list[str],
    env: dict[str, str],
    ready: str,
    launcher: Sequence[str] = (),
    steered: bool = False,
) -> Iterator[Served]:
    """A server process on a free port of 127.0.0.1, run by ``launcher`` (e.g. valgrind) if
    given; yields its base URL and the process once ``ready`` answers. ``steered``: its
    standard input and output are pipes to us."""
    port = free_port()
    process = subprocess.Popen(
        [*launcher, sys.executable, *[part.replace("{port}", str(port)) for part in command]],
        env={**os.environ, **env},
        stdin=subprocess.PIPE if steered else None,
        stdout=subprocess.PIPE if steered else subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        # Under valgrind or the profiler the start-up alone takes minutes on a busy machine.
        give_up = time.monotonic() + (600 if launcher or steered else 60)
        while True:
            try:
                if httpx.get(base + ready, timeout=5).status_code < 500:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > give_up:
                raise RuntimeError(f"{' '.join(command)} did not start")
            time.sleep(0.1)
        yield Served(base, process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)


def cardledger(
    settings: Settings,
    workers: int,
    launcher: Sequence[str] = (),
    profiled: bool = False,
    woken_only: bool = False,
) -> contextlib.AbstractContextManager[Served]:
    """`cardledger serve`; if ``profiled``, under the stage profiler (stage_server.py); if
    ``woken_only``, its background threads never poll by the clock (woken_server.py)."""
    # One client address sends the whole load: the per-client limits would stop it.
    env = {"CARDLEDGER_DATA_DIR": str(settings.data_dir), "CARDLEDGER_LIMITS": "off"}
    if settings.database_url:
        env["CARDLEDGER_DATABASE_URL"] = settings.database_url
    entry = "service.tools.cli"
    if profiled or woken_only:
        entry = "service.tools.bench.cpu." + ("stage_server" if profiled else "woken_server")
    command = ["-m", entry, "serve", "--port", "{port}", "--workers", str(workers)]
    return server(command, env, "/ready", launcher, steered=profiled)


def bare(workers: int, launcher: Sequence[str] = ()) -> contextlib.AbstractContextManager[Served]:
    command = ["-m", "uvicorn", "service.tools.bench.bare:app", "--port", "{port}"]
    command += ["--workers", str(workers), "--no-access-log", "--log-level", "warning"]
    return server(command, {}, "/move", launcher)


class Played(NamedTuple):
    report: LoadReport
    client_cpu: float  # seconds of CPU the load client (this process) took to send it


def play(url: str, concurrency: int, quick: bool) -> Played:
    started = time.process_time()
    report = asyncio.run(
        play_games(
            url,
            variant="open-hand",
            seats=2,
            games=games_for(concurrency, quick),
            concurrency=concurrency,
            options={},
            seed=concurrency,
            audit=False,
            progress=False,
        )
    )
    client_cpu = time.process_time() - started
    if report.errors:
        raise RuntimeError(f"the load met errors: {dict(report.errors)}")
    return Played(report, client_cpu)


def hammered(url: str, concurrency: int, requests: int) -> LoadReport:
    return asyncio.run(
        hammer(
            url,
            method="POST",
            path="/move",
            body=BARE_BODY,
            connections=concurrency,
            requests=requests,
        )
    )


def ms(report: LoadReport, kind: str, fraction: float) -> float:
    return 1000 * (report.percentile(kind, fraction) or 0.0)


def config_figures(
    store: str,
    workers: int,
    concurrency: int,
    played: Played,
    floor: LoadReport,
    library: float,
    raw: tuple[float, str],
) -> list[Figure]:
    where = f"{store}, {workers} worker(s), {concurrency} game(s) at once"
    report = played.report
    requests = sum(report.counts.values())
    commands = report.commands_per_second()
    p50, p99 = ms(report, "command", 0.5), ms(report, "command", 0.99)
    return [
        Figure(
            section="http",
            name=f"{where}: commands/s",
            value=commands,
            unit="cmd/s",
            baseline=f"library's plain get+save loop, {concurrency} thread(s), same store",
            baseline_value=library,
        ),
        Figure(
            section="http",
            name=f"{where}: commands/s",
            value=commands,
            unit="cmd/s",
            baseline=f"raw single-row inserts ({raw[1]}), {concurrency} client(s)",
            baseline_value=raw[0],
        ),
        Figure(
            section="http",
            name=f"{where}: requests/s (views, commands, setup)",
            value=report.requests_per_second(),
            unit="req/s",
            baseline=f"bare litestar POST, same client, {workers} worker(s)",
            baseline_value=floor.requests_per_second(),
        ),
        Figure(
            section="http",
            name=f"{where}: command p99",
            value=p99,
            unit="ms",
            baseline="bare litestar POST p99, same client and concurrency",
            baseline_value=ms(floor, "other", 0.99),
            higher_is_better=False,
            note=f"p50 {p50:.1f} ms",
        ),
        Figure(
            section="http",
            name=f"{where}: the load client's CPU per request",
            value=1e6 * played.client_cpu / requests,
            unit="µs",
            baseline="wall time per request at the rate measured (the ratio: its share of a core)",
            baseline_value=1e6 * report.wall_seconds / requests,
            higher_is_better=False,
        ),
    ]


def figures(quick: bool) -> list[Figure]:
    seconds = 1.0 if quick else 5.0
    stores = [s for s in STORES if s != "postgres" or postgres_available()]
    floors, bare_cpu = {}, {}
    busiest = max(CONCURRENCY)
    for workers in WORKERS:
        with bare(workers) as (url, process):
            for concurrency in CONCURRENCY:
                meter = Meter(process_tree(process.pid))
                floors[workers, concurrency] = hammered(url, concurrency, 500 if quick else 8000)
                requests = sum(floors[workers, concurrency].counts.values())
                bare_cpu[workers, concurrency] = meter.stop() / requests
    found: list[Figure] = []
    for store in stores:
        libraries, raws = {}, {}
        for concurrency in CONCURRENCY:
            with fresh_store(store) as settings:
                libraries[concurrency] = library_loop(settings, concurrency, seconds)
            with fresh_store(store) as settings:
                raws[concurrency] = raw_inserts(settings, concurrency, seconds)
        served: dict[tuple[int, int], LoadReport] = {}
        for workers in WORKERS:
            with fresh_store(store) as settings, cardledger(settings, workers) as (url, process):
                name = "PostgreSQL" if settings.database_url else "SQLite"
                for concurrency in CONCURRENCY:
                    with metered(process.pid, settings) as (server_cpu, database_cpu):
                        played = play(url, concurrency, quick)
                    served[workers, concurrency] = played.report
                    if concurrency == busiest:
                        spent = Spent(
                            server_cpu.seconds,
                            database_cpu.seconds,
                            played.client_cpu,
                            played.report.counts["command"],
                            sum(played.report.counts.values()),
                        )
                        where = f"{name}, {workers} worker(s), {concurrency} games at once"
                        found += ceiling_figures(
                            where,
                            workers,
                            spent,
                            bare_cpu[workers, concurrency],
                            libraries[concurrency],
                        )
                    found += config_figures(
                        name,
                        workers,
                        concurrency,
                        played,
                        floors[workers, concurrency],
                        libraries[concurrency],
                        raws[concurrency],
                    )
        found += goal_figures(name, served)
    return found


def goal_figures(store: str, served: dict[tuple[int, int], LoadReport]) -> list[Figure]:
    """The issue's two shape goals: 2 workers against 1, 64 games against 16."""
    busiest = max(CONCURRENCY)
    return [
        Figure(
            section="http",
            name=f"{store}, 2 workers, {busiest} games: commands/s",
            value=served[2, busiest].commands_per_second(),
            unit="cmd/s",
            baseline="the same with 1 worker",
            baseline_value=served[1, busiest].commands_per_second(),
        ),
        Figure(
            section="http",
            name=f"{store}, 1 worker, {busiest} games: commands/s",
            value=served[1, busiest].commands_per_second(),
            unit="cmd/s",
            baseline="the same with 16 games",
            baseline_value=served[1, 16].commands_per_second(),
        ),
    ]
