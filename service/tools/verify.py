"""`cardledger verify`: audits an exported bundle offline (no server, no database), and checks
the witnessed log offline: a game's receipt from the log (``--log-receipt``, what
``GET /games/{id}/log`` returned) against the log's key or a policy (``--policy``: the log's
key, witnesses' keys and a quorum), a newer checkpoint's consistency with an older one the
client held (``--older`` with ``--consistency``, what ``GET /log/consistency`` returned), and
evidence of a cheat (``--evidence``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bots.seated import bot_command
from projections.audit import audit
from projections.transparency.notes import Checkpoint, Policy, Verifier
from projections.transparency.receipts import (
    accepted,
    check_consistency,
    check_receipt,
    parse_policy,
)
from service.application.bundle import BundleError, read_bundle
from service.numbers import whole_number
from service.tools.evidence import check_evidence


def add_parser(commands: Any) -> None:
    parser = commands.add_parser("verify", help="audit an exported bundle offline")
    parser.add_argument(
        "bundle", metavar="BUNDLE", nargs="?", help="the file GET /games/{id}/export returned"
    )
    parser.add_argument(
        "--log-key",
        metavar="KEY",
        help="the log's verifier key (GET /log/key), or a file holding it",
    )
    parser.add_argument(
        "--policy",
        metavar="FILE",
        help="accept checkpoints under this policy: 'log KEY', 'witness KEY' lines, 'quorum N'",
    )
    parser.add_argument(
        "--evidence", metavar="FILE", help="evidence of a cheat (a split view, a game on record)"
    )
    parser.add_argument(
        "--log-receipt", metavar="FILE", help="a game's receipt from the log (GET /games/{id}/log)"
    )
    parser.add_argument(
        "--older", metavar="FILE", help="a signed checkpoint held before (GET /log/checkpoint)"
    )
    parser.add_argument(
        "--newer", metavar="FILE", help="a newer signed checkpoint (default: the receipt's)"
    )
    parser.add_argument(
        "--consistency", metavar="FILE", help="GET /log/consistency?from=<older>&to=<newer>"
    )
    parser.add_argument(
        "--receipt",
        action="append",
        default=[],
        metavar="VERSION:HEAD",
        help="a chain_head a response gave you at VERSION: the log must hold it (repeatable)",
    )
    parser.set_defaults(run=verify)


def verify(args: argparse.Namespace) -> int:
    """Audit a bundle offline: no server, no database. Exit 0 only if every check passes;
    2, with one line saying why, if the file or a receipt cannot be read. The witnessed log's
    receipts and checkpoints are checked as well when given (``verify_log``)."""
    logged = verify_log(args) if wanted(args) else 0
    if args.bundle is None:
        if not wanted(args):
            print("verify: give a BUNDLE, or the log's files to check", file=sys.stderr)
            return 2
        return logged
    if logged:
        return logged
    try:
        data = Path(args.bundle).read_bytes()
    except OSError as error:
        print(f"verify: cannot read {args.bundle}: {error.strerror or error}", file=sys.stderr)
        return 2
    try:
        receipts = [parse_receipt(text) for text in args.receipt]
        game_id, events = read_bundle(data)
    except (BundleError, ValueError) as error:
        print(f"verify: cannot verify {args.bundle}: {error}", file=sys.stderr)
        return 2
    report = audit(game_id, events, receipts, bots=bot_command)
    for check in report.checks:
        where = f" (event {check.version})" if check.version is not None else ""
        print(f"{check.status.upper():8} {check.name}: {check.detail}{where}")
    summary = f"game {game_id}, {report.head_version} events, head {report.chain_head}"
    print(f"verdict: {report.verdict} — {summary}")
    return 0 if report.verdict == "valid" else 1


def parse_receipt(text: str) -> tuple[int, str]:
    version_text, _, head = text.partition(":")
    version = whole_number(version_text)
    if version is None or len(head) != 64:
        raise ValueError(f"a receipt is VERSION:HEAD (64 hex digits), not {text!r}")
    return version, head.lower()


def wanted(args: argparse.Namespace) -> bool:
    return any((args.log_receipt, args.older, args.newer, args.consistency, args.evidence))


def verify_log(args: argparse.Namespace) -> int:
    """0 if every log check passes; 1 (a line saying why) if one fails; 2 if a file or the key
    cannot be read."""
    try:
        policy = (
            parse_policy(Path(args.policy).read_text())
            if args.policy
            else Policy(_key(args.log_key), (), 0)
        )
        evidence = json.loads(Path(args.evidence).read_text()) if args.evidence else None
        receipt = json.loads(Path(args.log_receipt).read_text()) if args.log_receipt else None
        older = Path(args.older).read_text() if args.older else None
        newer = Path(args.newer).read_text() if args.newer else None
        proof = json.loads(Path(args.consistency).read_text()) if args.consistency else None
    except (OSError, ValueError) as error:
        print(f"verify: cannot read the log's files: {error}", file=sys.stderr)
        return 2
    try:
        if evidence is not None:
            print(f"PROVEN   {check_evidence(evidence, policy.log)}")
        latest: Checkpoint | None = None
        if receipt is not None:
            latest, entries = check_receipt(receipt, policy)
            for entry in entries:
                print(f"OK       log entry: {type(entry).__name__} of game {entry.game_id}")
            print(f"OK       receipt: {len(entries)} entries in the tree of {latest.size}")
        if newer is not None:
            latest = accepted(newer, policy)
        if older is not None:
            if latest is None or proof is None:
                raise ValueError("--older needs --consistency and a newer checkpoint")
            held = accepted(older, policy)
            check_consistency(held, latest, proof["proof"])
            print(f"OK       consistency: the tree of {latest.size} extends the one of {held.size}")
    except (ValueError, KeyError, TypeError) as error:
        print(f"FAILED   log: {error}")
        return 1
    return 0


def _key(text: str | None) -> Verifier:
    if not text:
        raise ValueError("the log's checks need --log-key")
    path = Path(text)
    return Verifier.parse(path.read_text() if path.is_file() else text)
