"""The ``cardledger`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import httpx
import uvicorn

from projections.audit import audit
from service.application import Cardledger
from service.background.read_models import ReadModelRunner
from service.bundle import BundleError, read_bundle
from service.http.app import create_app
from service.http.openapi import openapi_json
from service.settings import Settings
from service.tools import bench
from service.tools.simulate import simulate


def serve(args: argparse.Namespace) -> int:
    uvicorn.run(
        "service.http.asgi:app",
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level="info",
        proxy_headers=False,
    )
    return 0


def openapi(args: argparse.Namespace) -> int:
    document = openapi_json(create_app(Settings(in_memory=True)))
    if args.output == "-":
        sys.stdout.buffer.write(document)
    else:
        Path(args.output).write_bytes(document)
    return 0


def project(args: argparse.Namespace) -> int:
    """Run the read-model projector in this process (set CARDLEDGER_PROJECTOR=external for the
    API processes so they leave it to this one)."""
    ledger = Cardledger(Settings.from_env())
    try:
        if args.rebuild:
            print(f"rebuilt from position 0: {ledger.read_models.rebuild()} notifications applied")
        if args.once:
            print(f"caught up: {ledger.read_models.catch_up()} notifications applied")
            return 0
        ReadModelRunner(ledger.read_models).run()
    except KeyboardInterrupt:
        pass
    finally:
        ledger.close()
    return 0


def verify(args: argparse.Namespace) -> int:
    """Audit a bundle offline: no server, no database. Exit 0 only if every check passes."""
    try:
        game_id, events = read_bundle(Path(args.bundle).read_bytes())
        receipts = [parse_receipt(text) for text in args.receipt]
    except (OSError, BundleError, ValueError) as error:
        print(f"cannot verify: {error}", file=sys.stderr)
        return 2
    report = audit(game_id, events, receipts)
    for check in report.checks:
        where = f" (event {check.version})" if check.version is not None else ""
        print(f"{check.status.upper():8} {check.name}: {check.detail}{where}")
    summary = f"game {game_id}, {report.head_version} events, head {report.chain_head}"
    print(f"verdict: {report.verdict} — {summary}")
    return 0 if report.verdict == "valid" else 1


def parse_receipt(text: str) -> tuple[int, str]:
    version, _, head = text.partition(":")
    if not version.isdigit() or len(head) != 64:
        raise ValueError(f"a receipt is VERSION:HEAD (64 hex digits), not {text!r}")
    return int(version), head.lower()


def run_simulation(args: argparse.Namespace) -> int:
    try:
        options = json.loads(args.options)
        results = simulate(args.url, args.variant, args.seats, args.games, options, args.seed)
    except (httpx.HTTPError, ValueError) as error:
        print(f"simulation failed: {error}", file=sys.stderr)
        return 1
    for result in results:
        print(json.dumps(result))
    return 0 if all(r["audit"] == "valid" for r in results) else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardledger", description="Event-sourced card-game service"
    )
    commands = parser.add_subparsers(dest="command", required=True)

    serve_cmd = commands.add_parser("serve", help="run the HTTP API")
    serve_cmd.add_argument("--host", default="127.0.0.1")
    serve_cmd.add_argument("--port", type=int, default=8000)
    serve_cmd.add_argument("--workers", type=int, default=1)
    serve_cmd.set_defaults(run=serve)

    openapi_cmd = commands.add_parser("openapi", help="write the OpenAPI document")
    openapi_cmd.add_argument(
        "--output", default="openapi/openapi.json", help="a file, or - for stdout"
    )
    openapi_cmd.set_defaults(run=openapi)

    project_cmd = commands.add_parser("project", help="run the read-model projector")
    project_cmd.add_argument("--rebuild", action="store_true", help="start again from position 0")
    project_cmd.add_argument("--once", action="store_true", help="catch up, then exit")
    project_cmd.set_defaults(run=project)

    verify_cmd = commands.add_parser("verify", help="audit an exported bundle offline")
    verify_cmd.add_argument("bundle", help="the file GET /games/{id}/export returned")
    verify_cmd.add_argument(
        "--receipt",
        action="append",
        default=[],
        metavar="VERSION:HEAD",
        help="a chain_head a command response gave you at VERSION (repeatable)",
    )
    verify_cmd.set_defaults(run=verify)

    simulate_cmd = commands.add_parser("simulate", help="bots play games over the REST API")
    simulate_cmd.add_argument("--url", default="http://127.0.0.1:8000")
    simulate_cmd.add_argument("--variant", default="open-hand")
    simulate_cmd.add_argument("--seats", type=int, default=4)
    simulate_cmd.add_argument("--games", type=int, default=1)
    simulate_cmd.add_argument("--options", default="{}", help="the game's options as JSON")
    simulate_cmd.add_argument("--seed", type=int, default=0, help="the bots' choices")
    simulate_cmd.set_defaults(run=run_simulation)

    bench_cmd = commands.add_parser(
        "bench", help="print the benchmark table (every figure beside a same-run baseline)"
    )
    bench_cmd.add_argument(
        "--only",
        default=",".join(bench.SECTIONS),
        help=f"comma-separated sections, of {', '.join(bench.SECTIONS)}",
    )
    bench_cmd.add_argument("--quick", action="store_true", help="short runs, for a smoke test")
    bench_cmd.add_argument(
        "--output", default="", metavar="FILE", help="also write the table into FILE (markdown)"
    )
    bench_cmd.set_defaults(
        run=lambda args: bench.main(
            [s for s in args.only.split(",") if s], quick=args.quick, output=args.output
        )
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
