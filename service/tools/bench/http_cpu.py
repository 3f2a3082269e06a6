"""Where the CPU of the http section's busiest run goes, and what it allows on this machine.

A throughput goal is bounded by the CPU a command costs everything on the machine together: the
server's processes, PostgreSQL's backends serving its database and the load client. At ``C``
seconds of CPU a command, ``N`` cores carry at most ``N / C`` commands a second however the code
waits, and a worker process, bound by its interpreter lock, uses one core at most. The same sum
with the bare endpoint's server CPU for as many requests in place of ours says what even a
command path as cheap as a bare litestar request would allow: a goal above that cannot be met
on this machine by the service's code alone.

CPU is read per process (user + system time, psutil): the server's process tree, and the
backends that ``pg_stat_activity`` shows on the benchmark's own database (the server is local).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NamedTuple

import psutil
import psycopg

from service.settings import Settings
from service.store.postgres.listener import conninfo
from service.tools.bench.figures import Figure


class Meter:
    """CPU seconds that a changing set of processes spent since it started; a process that
    appears later counts from its start, one that ends meanwhile is lost (the pools keep their
    connections for the run)."""

    def __init__(self, processes: Callable[[], list[psutil.Process]]) -> None:
        self._processes = processes
        self._started = self._times()
        self.seconds = 0.0

    def _times(self) -> dict[int, float]:
        times = {}
        for process in self._processes():
            try:
                spent = process.cpu_times()
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            times[process.pid] = spent.user + spent.system
        return times

    def stop(self) -> float:
        ended = self._times()
        self.seconds = sum(cpu - self._started.get(pid, 0.0) for pid, cpu in ended.items())
        return self.seconds


def process_tree(pid: int) -> Callable[[], list[psutil.Process]]:
    """A server process and its children (uvicorn's workers)."""

    def processes() -> list[psutil.Process]:
        try:
            root = psutil.Process(pid)
            return [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    return processes


def backends(settings: Settings) -> Callable[[], list[psutil.Process]]:
    """PostgreSQL's backends connected to the settings' database (none for SQLite)."""

    def processes() -> list[psutil.Process]:
        if not settings.database_url:
            return []
        with psycopg.connect(conninfo(settings.database_url)) as connection:
            rows = connection.execute(
                "SELECT pid FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
        found = []
        for (pid,) in rows:
            try:
                found.append(psutil.Process(pid))
            except psutil.NoSuchProcess:
                continue
        return found

    return processes


@contextmanager
def metered(server_pid: int, settings: Settings) -> Iterator[tuple[Meter, Meter]]:
    """Meters of the server's processes and of its database's backends over the block."""
    server, database = Meter(process_tree(server_pid)), Meter(backends(settings))
    yield server, database
    server.stop()
    database.stop()


class Spent(NamedTuple):
    """CPU seconds of one run, by whom, and what the run did."""

    server: float
    database: float
    client: float
    commands: int
    requests: int


def cores() -> int:
    return len(os.sched_getaffinity(0))


def carried(workers: int, server: float, others: float) -> float:
    """Commands a second the cores carry at these CPU milliseconds a command: the server's
    processes use one core each at most (the GIL), the database and the client the rest."""
    return 1000 * min(cores() / (server + others), min(workers, cores()) / server)


def ceiling_figures(
    where: str, workers: int, spent: Spent, bare_per_request: float, library: float
) -> list[Figure]:
    """Our server's CPU a command against the bare endpoint's for as many requests; the rate
    this machine's cores could carry at the CPU measured, and with the bare endpoint's server
    CPU in place of ours, each against the library's loop (the issue's goal: 3x)."""
    per = 1000 / spent.commands  # ms a command per second spent
    server, database, client = spent.server * per, spent.database * per, spent.client * per
    bare = bare_per_request * 1000 * spent.requests / spent.commands

    def carried_figure(name: str, server_ms: float, note: str) -> Figure:
        return Figure(
            section="http",
            name=f"{where}: {name}",
            value=carried(workers, server_ms, database + client),
            unit="cmd/s",
            baseline="library's plain get+save loop, as many threads, same store",
            baseline_value=library,
            note=note,
        )

    return [
        Figure(
            section="http",
            name=f"{where}: the server's CPU a command",
            value=server,
            unit="ms",
            baseline=f"the bare endpoint's server CPU for as many requests"
            f" ({spent.requests / spent.commands:.2f} a command), same client and workers",
            baseline_value=bare,
            higher_is_better=False,
        ),
        carried_figure(
            f"commands/s {cores()} cores carry at the CPU measured",
            server,
            f"server {server:.2f} + PostgreSQL {database:.2f} + client {client:.2f} ms",
        ),
        carried_figure(
            "the same if the server cost only the bare endpoint's CPU",
            bare,
            f"bare {bare:.2f} ms a command",
        ),
    ]
