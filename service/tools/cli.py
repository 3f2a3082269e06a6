"""The ``cardledger`` command line."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import textwrap
import threading
import time
from importlib import metadata
from pathlib import Path
from typing import TextIO

import uvicorn

from service.application import Cardledger
from service.background.projector import ReadModelRunner
from service.http.app import create_app
from service.http.openapi.document import openapi_json
from service.http.protocol import TimedHttpToolsProtocol
from service.read_models.models import ReadModels
from service.settings import Settings, variable_names, variables
from service.store.locks import LeaderLock
from service.tools import bench, load, monitor, verify, witness
from service.tools.duels import duel
from service.tools.http1 import HttpError
from service.tools.simulate import LoadReport, summary_text, write_results
from service.tools.supervisor import explain_worker_deaths, worker_timeout


def serve(args: argparse.Namespace) -> int:
    migrate(args)  # once, before the workers start: they would only find the tables there
    settings = Settings.from_env()
    trusted = settings.trusted_proxies
    worker_timeout = args.worker_timeout or settings.worker_timeout
    explain_worker_deaths(worker_timeout)
    uvicorn.run(
        "service.http.asgi:app",
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level="info",
        access_log=args.access_log,  # a line per request costs a twentieth of the CPU
        http=TimedHttpToolsProtocol,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=trusted or None,
        timeout_worker_healthcheck=worker_timeout,  # a worker's start counts against it too
    )
    return 0


def openapi(args: argparse.Namespace) -> int:
    document = openapi_json(create_app(Settings(in_memory=True)))
    if args.output == "-":
        sys.stdout.buffer.write(document)
    else:
        Path(args.output).write_bytes(document)
    return 0


def migrate(args: argparse.Namespace) -> int:
    """Create the store's tables and the read models' (safe to run from several processes at
    once: creation is serialised by a lock)."""
    settings = Settings.from_env()
    Cardledger(settings).close()
    where = "PostgreSQL" if settings.database_url else f"SQLite under {settings.data_dir}"
    print(f"schema ready ({where})", file=sys.stderr)
    return 0


def project(args: argparse.Namespace) -> int:
    """Run the read-model projector in this process (set CARDLEDGER_PROJECTOR=external for the
    API processes so they leave it to this one). Several may run: one works, the others wait."""
    settings = Settings.from_env()
    ledger = Cardledger(settings)
    listener = ledger.store.listener(settings.database_url) if settings.database_url else None
    try:
        if args.rebuild:
            target = ledger.store.recorder.max_notification_id() or 0
            print(rebuild_with_progress(ledger.read_models, target, progress=sys.stderr))
        if args.once:
            print(f"caught up: {ledger.read_models.catch_up()} notifications applied")
            return 0
        if listener is not None:
            listener.start()
        leader = LeaderLock(settings, "projector")
        ReadModelRunner(ledger.read_models, ledger.store.changes, leader).run()
    except KeyboardInterrupt:
        pass
    finally:
        if listener is not None:
            listener.stop()
        ledger.close()
    return 0


def rebuild_with_progress(read_models: ReadModels, target: int, *, progress: TextIO) -> str:
    """Rebuild the read models from position 0; on a terminal, show how far along the log it
    is. Returns the summary: what was applied and made, and how long it took."""
    started = time.perf_counter()
    outcome: list[int | Exception] = []

    def rebuild() -> None:
        try:
            outcome.append(read_models.rebuild())
        except Exception as error:  # raised again below, in the caller's thread
            outcome.append(error)

    worker = threading.Thread(target=rebuild, daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(timeout=0.5)
        if worker.is_alive() and progress.isatty():
            progress.write(f"\rrebuilding: notification {read_models.position()} of {target}")
            progress.flush()
    if progress.isatty():
        progress.write("\r\033[K")  # the progress line gives way to the summary
    applied = outcome[0]
    if isinstance(applied, Exception):
        raise applied
    elapsed = time.perf_counter() - started
    games, leaderboard_rows = read_models.tables.row_counts()
    return (
        f"rebuilt from position 0: {applied} notifications applied, {games} games,"
        f" {leaderboard_rows} leaderboard rows, in {elapsed:.2f} s"
    )


def run_simulation(args: argparse.Namespace) -> int:
    """Progress on stderr, the summary on stdout, a JSON line per game into ``--output``.
    Exit 0 only if every game finished (with a valid audit); 2 if the run could not start."""
    try:
        options = json.loads(args.options)
    except ValueError:
        options = None
    if not isinstance(options, dict):
        print(f"simulate: --options must be a JSON object, not {args.options!r}", file=sys.stderr)
        return 2
    try:
        asyncio.run(load.check_reachable(args.url))
        if args.output:
            Path(args.output).write_bytes(b"")  # fail now, not after the run
    except (HttpError, ValueError, OSError) as error:
        print(f"simulate: {error}", file=sys.stderr)
        return 2
    report = LoadReport()
    interrupted = False
    try:
        asyncio.run(
            load.play_games(
                args.url,
                variant=args.variant,
                seats=args.seats,
                games=args.games,
                concurrency=args.concurrency,
                options=options,
                seed=args.seed,
                audit=not args.no_audit,
                progress=True,
                report=report,
            )
        )
    except KeyboardInterrupt:
        interrupted = True  # the games finished so far are still reported
        print("\nsimulate: interrupted; the games finished so far:", file=sys.stderr)
    print(summary_text(report, audited=not args.no_audit))
    if args.output:
        with open(args.output, "wb") as out:
            write_results(report, out)
    if interrupted:
        return 130
    return 0 if report.all_finished_and_valid(audited=not args.no_audit) else 1


def list_settings(args: argparse.Namespace) -> int:
    for variable in variables():
        print(f"{variable.name} (default: {variable.default})")
        print(textwrap.fill(variable.meaning, initial_indent="    ", subsequent_indent="    "))
    return 0


def installed_version() -> str:
    """The version pip installed (the package metadata), not a copy kept in the source."""
    try:
        return metadata.version("cardledger")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardledger",
        description="Event-sourced card-game service",
        epilog="Every command reads its settings from the environment: "
        + ", ".join(variable_names())
        + ". `cardledger settings` gives each one's default and meaning.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    commands = parser.add_subparsers(
        dest="command",
        required=True,
        metavar="COMMAND",
        help="one of these; `cardledger COMMAND --help` explains its options",
    )

    serve_cmd = commands.add_parser("serve", help="run the HTTP API")
    serve_cmd.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on, 0.0.0.0 for every interface (default: %(default)s)",
    )
    serve_cmd.add_argument(
        "--port", type=int, default=8000, help="the TCP port to listen on (default: %(default)s)"
    )
    serve_cmd.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes behind the port, sharing one store (default: %(default)s)",
    )
    serve_cmd.add_argument("--access-log", action="store_true", help="log a line for every request")
    serve_cmd.add_argument(
        "--worker-timeout",
        type=worker_timeout,
        metavar="SECONDS",
        help="with --workers: how long a worker may take to start or to answer the supervisor's"
        " health check before it is killed and replaced (default: CARDLEDGER_WORKER_TIMEOUT,"
        " else 30)",
    )
    serve_cmd.set_defaults(run=serve)

    openapi_cmd = commands.add_parser("openapi", help="write the OpenAPI document")
    openapi_cmd.add_argument(
        "--output",
        default="openapi/openapi.json",
        metavar="FILE",
        help="where to write it, or - for stdout (default: %(default)s)",
    )
    openapi_cmd.set_defaults(run=openapi)

    migrate_cmd = commands.add_parser("migrate", help="create the tables (serve does it too)")
    migrate_cmd.set_defaults(run=migrate)

    settings_cmd = commands.add_parser(
        "settings", help="list the environment variables, with their defaults and meanings"
    )
    settings_cmd.set_defaults(run=list_settings)

    project_cmd = commands.add_parser("project", help="run the read-model projector")
    project_cmd.add_argument(
        "--rebuild",
        action="store_true",
        help="forget the read models and follow the log again from position 0, then say what"
        " was rebuilt",
    )
    project_cmd.add_argument(
        "--once", action="store_true", help="catch up, then exit (default: keep following the log)"
    )
    project_cmd.set_defaults(run=project)

    verify.add_parser(commands)

    simulate_cmd = commands.add_parser("simulate", help="bots play games over the REST API")
    simulate_cmd.add_argument(
        "--url",
        default="http://127.0.0.1:8000",
        help="the service's base URL (default: %(default)s)",
    )
    simulate_cmd.add_argument(
        "--variant",
        default="open-hand",
        help="a variant id, of GET /variants (default: %(default)s)",
    )
    simulate_cmd.add_argument(
        "--seats", type=int, default=4, help="players per game (default: %(default)s)"
    )
    simulate_cmd.add_argument(
        "--games", type=int, default=1, help="how many games to play (default: %(default)s)"
    )
    simulate_cmd.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="games played at once, each on a keep-alive connection of its own"
        " (default: %(default)s)",
    )
    simulate_cmd.add_argument(
        "--options", default="{}", help="the game's options as JSON (default: %(default)s)"
    )
    simulate_cmd.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seeds the bots' choices: game i draws from SEED:i (default: %(default)s)",
    )
    simulate_cmd.add_argument(
        "--output", default="", metavar="FILE", help="write one JSON line per game into FILE"
    )
    simulate_cmd.add_argument(
        "--no-audit", action="store_true", help="skip each finished game's GET /audit"
    )
    simulate_cmd.set_defaults(run=run_simulation)

    bench_cmd = commands.add_parser(
        "bench", help="print the benchmark table (every figure beside a same-run baseline)"
    )
    bench_cmd.add_argument(
        "--only",
        default=",".join(bench.SECTIONS),
        metavar="SECTIONS",
        help=f"comma-separated sections, of {', '.join(bench.SECTIONS)} (default: all)",
    )
    bench_cmd.add_argument(
        "--quick", action="store_true", help="short runs, for a smoke test (default: full length)"
    )
    bench_cmd.add_argument(
        "--output",
        default="",
        metavar="FILE",
        help="also write the table into FILE, as markdown (default: print it only)",
    )
    bench_cmd.set_defaults(
        run=lambda args: bench.main(
            [s for s in args.only.split(",") if s], quick=args.quick, output=args.output
        )
    )
    duel.add_parser(commands)
    witness.add_parser(commands)
    monitor.add_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
