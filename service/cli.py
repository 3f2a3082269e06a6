"""The ``cardledger`` command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import uvicorn

from service.app import create_app
from service.openapi import openapi_json
from service.settings import Settings


def serve(args: argparse.Namespace) -> int:
    uvicorn.run(
        "service.asgi:app",
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
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
