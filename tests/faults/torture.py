"""`make torture`: the fault suite at full length, one line per check with its figure.

Each check is also a (shorter) test in `make test`. PostgreSQL checks use the server at
CARDLEDGER_TEST_POSTGRES_URL (a database of the run's own, dropped afterwards).
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import psycopg

from service.settings import Settings
from tests.api.games.test_racing_retries import race_retries
from tests.faults import crash_ledger, failover, hosts_check
from tests.faults.proxy import FaultyProxy
from tests.faults.test_outage import through
from tests.faults.test_racing_joins import race_for_seats
from tests.store import log_tailing
from tests.support.databases import new_test_database_name
from tests.support.servers import running_server, start_process, stop_process

ADMIN_URL = os.environ.get(
    "CARDLEDGER_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
failures: list[str] = []


def line(check: str, figure: str, ok: bool) -> None:
    print(f"{'ok  ' if ok else 'FAIL'} {check:<46} {figure}", flush=True)
    if not ok:
        failures.append(check)


@contextlib.contextmanager
def stores() -> Iterator[list[tuple[str, Callable[[Path], Settings]]]]:
    """SQLite, and a PostgreSQL database of this run's own (each use gets a fresh schema)."""
    database = new_test_database_name()  # swept by a later run if this one is killed
    base, _, _ = ADMIN_URL.rpartition("/")
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{database}"')
    url = f"{base}/{database}"

    def postgres(directory: Path) -> Settings:
        schema = f"t_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(f'CREATE SCHEMA "{schema}"')
        return Settings(database_url=f"{url}?schema={schema}", data_dir=directory)

    try:
        yield [("SQLite", lambda d: Settings(data_dir=d)), ("PostgreSQL", postgres)]
    finally:
        with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def crash_checks(name: str, settings: Settings, directory: Path) -> None:
    outcome = crash_ledger.run(settings, directory, kills=15, bots=8, seed=7)
    figure = (
        f"{outcome.kills} SIGKILLs, {outcome.acknowledged} acknowledged writes in"
        f" {outcome.games} games: {outcome.lost} lost, {outcome.broken_chains} broken chains"
    )
    line(f"crash ledger, {name}", figure, outcome.lost == outcome.broken_chains == 0)


def outage_checks(settings: Settings, directory: Path) -> None:
    target = urlsplit(settings.database_url or "")
    for fault in ("refuse", "blackhole"):
        proxy = FaultyProxy((target.hostname or "127.0.0.1", target.port or 5432))
        os.environ["CARDLEDGER_STORE_TIMEOUT"] = "2"
        routed = Settings(
            database_url=through(proxy, settings.database_url or ""), data_dir=directory
        )
        try:
            with (
                running_server(routed, directory) as base,
                httpx.Client(base_url=base, timeout=60) as http,
            ):
                http.post("/players", json={"name": "Ann"}).raise_for_status()
                getattr(proxy, fault)()
                started = time.monotonic()
                answer = http.post("/players", json={"name": "Ben"})
                refused_in = time.monotonic() - started
                started = time.monotonic()
                ready = http.get("/ready")
                ready_in = time.monotonic() - started
                proxy.restore()
                started = time.monotonic()
                while http.get("/ready").status_code != 200 and time.monotonic() - started < 30:
                    time.sleep(0.1)
                back = http.post("/players", json={"name": "Cat"}).status_code
                recovered_in = time.monotonic() - started
        finally:
            os.environ.pop("CARDLEDGER_STORE_TIMEOUT", None)
            proxy.close()
        ok = answer.status_code == 503 and ready.status_code == 503 and back == 201
        figure = (
            f"write answered {answer.status_code} in {refused_in:.1f} s, /ready {ready.status_code}"
            f" in {ready_in:.2f} s, recovered in {recovered_in:.1f} s"
        )
        line(f"PostgreSQL outage ({fault})", figure, ok and ready_in < 1 and refused_in < 5)


OUTAGES = (10, 40, 90)  # seconds the database is away; writes must resume within one of its return


def long_outage_checks(settings: Settings, directory: Path) -> None:
    target = urlsplit(settings.database_url or "")
    proxy = FaultyProxy((target.hostname or "127.0.0.1", target.port or 5432))
    routed = Settings(database_url=through(proxy, settings.database_url or ""), data_dir=directory)
    try:
        with (
            running_server(routed, directory) as base,
            httpx.Client(base_url=base, timeout=60) as http,
        ):
            for seconds in OUTAGES:
                http.post("/players", json={"name": "Ann"}).raise_for_status()
                proxy.refuse()
                down_until = time.monotonic() + seconds
                while time.monotonic() < down_until:
                    http.post("/players", json={"name": "Zed"})  # keeps the pool trying
                    time.sleep(1)
                proxy.restore()
                back = time.monotonic()
                while http.post("/players", json={"name": "Amy"}).status_code != 201:
                    if time.monotonic() - back > 60:
                        break
                    time.sleep(0.01)
                took = time.monotonic() - back
                line(f"writes after a {seconds} s outage", f"again in {took:.2f} s", took < 1.0)
    finally:
        proxy.close()


def race_checks(name: str, settings: Settings, directory: Path) -> None:
    for workers in (1, 2):
        with running_server(settings, directory, workers=workers) as base:
            wrong = race_retries(base, rounds=20)
            line(
                f"racing retries, {name}, {workers} worker(s)",
                f"20 rounds of 40 concurrent requests: {wrong} wrong answers",
                wrong == 0,
            )
            wrong = race_for_seats(base, rounds=20)
            line(
                f"racing joins, {name}, {workers} worker(s)",
                f"20 games, 12 players racing for 3 seats: {wrong} wrong outcomes",
                wrong == 0,
            )


def tailing_checks(name: str, settings: Settings) -> None:
    outcome = log_tailing.run(settings, seconds=60)
    line(f"readers tailing writers, {name}", outcome.figure(), outcome.ok())


def schema_checks(make: Callable[[Path], Settings], directory: Path) -> None:
    crashed = 0
    for _ in range(50):
        env = {**os.environ, "CARDLEDGER_DATABASE_URL": make(directory).database_url or ""}
        command = [sys.executable, "-m", "service.tools.cli", "migrate"]
        logs = [directory / f"migrate-{side}.log" for side in "ab"]
        starts = [start_process(command, env=env, log=log) for log in logs]
        try:
            crashed += sum(process.wait(timeout=60) != 0 for process in starts)
        finally:
            for process in starts:
                stop_process(process)
    line("schema races, PostgreSQL", f"50 two-process starts: {crashed} crashed", crashed == 0)


def limit_checks(directory: Path) -> None:
    os.environ.update(CARDLEDGER_LIMITS="on", CARDLEDGER_LIMIT_REGISTRATIONS="5")
    os.environ.update(CARDLEDGER_LIMIT_STREAMS_PER_ADDRESS="3")
    try:
        with (
            running_server(Settings(data_dir=directory), directory) as base,
            httpx.Client(base_url=base, timeout=10) as http,
        ):
            owner = http.post("/players", json={"name": "Owner"}).json()["token"]
            created = http.post(
                "/games",
                json={"variant": "open-hand", "seats": 2},
                headers={"Authorization": f"Bearer {owner}"},
            ).json()
            codes = [http.post("/players", json={"name": "X"}).status_code for _ in range(8)]
            line(
                "rate limit, registrations",
                f"1 + 8 at a limit of 5: {codes.count(201)} answered 201, {codes.count(429)} 429",
                codes == [201] * 4 + [429] * 4,
            )
            line("stream caps", *stream_cap(base, f"/games/{created['game_id']}/stream"))
    finally:
        for name in ("CARDLEDGER_LIMITS", "CARDLEDGER_LIMIT_REGISTRATIONS"):
            os.environ.pop(name, None)
        os.environ.pop("CARDLEDGER_LIMIT_STREAMS_PER_ADDRESS", None)


def stream_cap(base: str, path: str) -> tuple[str, bool]:
    """Open streams one by one from one address (limit 3) until one is refused."""
    with contextlib.ExitStack() as held:
        codes = []
        for _ in range(4):
            stream = held.enter_context(httpx.stream("GET", base + path, timeout=10))
            codes.append(stream.status_code)
    figure = f"4 streams at a limit of 3 per address: {codes}"
    return figure, codes == [200, 200, 200, 429]


def hosts_checks() -> None:
    """The hosts the network-cut drill runs its nodes on: tests/faults/hosts_check.py."""
    try:
        hosts_check.a_cut_host_keeps_running_unreachable_until_restored()
    except AssertionError as failure:
        line("hosts: cut, restored, removed", str(failure), False)
    else:
        line("hosts: cut, restored, removed", "a host unreachable while cut, nothing left", True)


def failover_checks(directory: Path) -> None:
    """The primary's machine dies, then (a new cluster) its network is cut, under bot load:
    tests/faults/failover.py."""
    directory.parent.chmod(0o755)  # the cluster's processes run as the postgres user
    for fault, what in failover.FAULTS.items():
        folder = directory / fault
        folder.mkdir(mode=0o755, parents=True)
        directory.chmod(0o755)
        drill = failover.run(folder, fault=fault)
        line(f"failover, {what}", drill.figure(), drill.ok())


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch, stores() as kinds:
        root = Path(scratch)
        for index, (name, make) in enumerate(kinds):
            directory = root / f"crash-{index}"
            directory.mkdir()
            crash_checks(name, make(directory), directory)
        for index, (name, make) in enumerate(kinds):
            directory = root / f"race-{index}"
            directory.mkdir()
            race_checks(name, make(directory), directory)
            tailing_checks(name, make(directory))
        postgres = kinds[1][1]
        outage_checks(postgres(root), root)
        long_outage_checks(postgres(root), root)
        schema_checks(postgres, root)
        limit = root / "limits"
        limit.mkdir()
        limit_checks(limit)
        hosts_checks()
        failover_checks(root / "failover")
    print(f"{len(failures)} of the checks failed" if failures else "every check held")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
