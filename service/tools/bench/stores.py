"""Stores to measure on, and the baselines that only need a store.

Each measurement gets a store of its own: a fresh SQLite directory, or a fresh PostgreSQL
database on the server at CARDLEDGER_BENCH_POSTGRES_URL (default: the local one), dropped after.
The baselines: the eventsourcing library's own plain loop (get an aggregate, call a command,
save; no cache, its stock recorder) and raw single-row inserts (pgbench where installed, else
a psycopg loop; for SQLite a sqlite3 loop with the same durability as the service).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from service.settings import Settings

POSTGRES_URL = os.environ.get(
    "CARDLEDGER_BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
COMMANDS_PER_AGGREGATE = 10
STORES = ("sqlite", "postgres")


def postgres_available() -> bool:
    try:
        psycopg.connect(POSTGRES_URL, connect_timeout=2).close()
    except psycopg.Error:
        return False
    return True


@contextlib.contextmanager
def fresh_store(kind: str) -> Iterator[Settings]:
    """Settings for a store nobody has used yet; removed afterwards."""
    directory = Path(tempfile.mkdtemp(prefix="cardledger-bench-"))
    try:
        if kind == "sqlite":
            yield Settings(data_dir=directory)
            return
        name = f"cardledger_bench_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield Settings(database_url=_database(name), data_dir=directory)
        finally:
            with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _database(name: str) -> str:
    base, _, _ = POSTGRES_URL.rpartition("/")
    return f"{base}/{name}"


def in_threads(threads: int, seconds: float, work: Callable[[int, threading.Event], int]) -> float:
    """Runs ``work(index, stop)`` in ``threads`` threads for ``seconds``; each returns how many
    operations it completed. Returns operations per second."""
    stop = threading.Event()
    counts = [0] * threads

    def run(index: int) -> None:
        counts[index] = work(index, stop)

    workers = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    time.sleep(seconds)
    stop.set()
    for worker in workers:
        worker.join()
    return sum(counts) / (time.perf_counter() - started)


# --- the library's own plain loop ---------------------------------------------------------------


class Counter(Aggregate):
    """The smallest useful aggregate: a command that records an event."""

    def __init__(self) -> None:
        self.count = 0

    @event("Counted")
    def count_one(self) -> None:
        self.count += 1


class PlainApplication(Application[uuid.UUID]):
    """The library as it ships: stock recorder (its table lock), no cache, no snapshots."""


def library_env(settings: Settings, threads: int) -> dict[str, str]:
    env = {
        key: value
        for key, value in settings.store_env().items()
        if key.startswith(("POSTGRES_", "SQLITE_DBNAME", "PERSISTENCE_MODULE"))
    }
    if "POSTGRES_DBNAME" in env:
        env["POSTGRES_POOL_SIZE"] = str(threads)
        env["POSTGRES_MAX_OVERFLOW"] = "0"
    else:
        env["SQLITE_DBNAME"] = str(settings.data_dir / "library.sqlite3")
    return env


def library_loop(settings: Settings, threads: int, seconds: float) -> float:
    """Commands per second of the library's plain loop: each command a get (folding the
    aggregate's events, no cache) and a save; a new aggregate every 10 commands."""
    app = PlainApplication(env=library_env(settings, threads))

    def work(index: int, stop: threading.Event) -> int:
        done = 0
        while not stop.is_set():
            counter = Counter()
            app.save(counter)
            done += 1
            for _ in range(COMMANDS_PER_AGGREGATE - 1):
                current: Counter = app.repository.get(counter.id)
                current.count_one()
                app.save(current)
                done += 1
        return done

    try:
        return in_threads(threads, seconds, work)
    finally:
        app.close()


# --- raw single-row inserts ---------------------------------------------------------------------


def raw_inserts(settings: Settings, clients: int, seconds: float) -> tuple[float, str]:
    """Single-row insert transactions per second, and what made them."""
    if settings.database_url is None:
        return sqlite_inserts(settings, clients, seconds), "sqlite3 loop, synchronous=FULL"
    if shutil.which("pgbench"):
        return pgbench_inserts(settings.database_url, clients, seconds), "pgbench"
    return psycopg_inserts(settings.database_url, clients, seconds), "psycopg loop"


def pgbench_inserts(url: str, clients: int, seconds: float) -> float:
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("CREATE TABLE IF NOT EXISTS bench_rows (id bigserial PRIMARY KEY, body text)")
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as script:
        script.write("INSERT INTO bench_rows (body) VALUES ('one row');\n")
    try:
        done = subprocess.run(
            [
                *("pgbench", "-n", "-f", script.name, "-c", str(clients), "-j", str(clients)),
                *("-T", str(max(1, round(seconds))), url),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    finally:
        os.unlink(script.name)
    for line in done.stdout.splitlines():
        if line.startswith("tps ="):
            return float(line.split()[2])
    raise RuntimeError(f"pgbench printed no tps: {done.stdout}")


def psycopg_inserts(url: str, clients: int, seconds: float) -> float:
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("CREATE TABLE IF NOT EXISTS bench_rows (id bigserial PRIMARY KEY, body text)")

    def work(index: int, stop: threading.Event) -> int:
        done = 0
        with psycopg.connect(url, autocommit=True) as db:
            while not stop.is_set():
                db.execute("INSERT INTO bench_rows (body) VALUES ('one row')")
                done += 1
        return done

    return in_threads(clients, seconds, work)


def sqlite_inserts(settings: Settings, clients: int, seconds: float) -> float:
    path = settings.data_dir / "rows.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, body TEXT)")

    def work(index: int, stop: threading.Event) -> int:
        done = 0
        db = sqlite3.connect(path, isolation_level=None, timeout=30)
        db.execute(f"PRAGMA synchronous={settings.sqlite_synchronous}")
        while not stop.is_set():
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO rows (body) VALUES ('one row')")
            db.execute("COMMIT")
            done += 1
        db.close()
        return done

    return in_threads(clients, seconds, work)


def describe(settings: Settings) -> str:
    return "PostgreSQL" if settings.database_url else "SQLite"
