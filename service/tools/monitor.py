"""`cardledger monitor --url URL`: follows the witnessed log from outside, as anyone can.

Each round it fetches the signed checkpoint (accepted under the log's key, or a policy), checks
its consistency proof from the checkpoint it held before, reads the new entries from the entry
tiles and checks that the entries it kept and the new ones make the signed root; then it checks
every game the log lists against what the service serves of it: the creation's commitment is the
game's seed commitment (its first event), the end's version and chain head are the audit's, a
game on record still exists, and a game the service serves as over (finished or cancelled)
has its end in the log within ``--end-grace`` seconds of the monitor first seeing it over (kept
in the state; measured on the monitor's clock, from that answer to a checkpoint fetched later:
so even a grace of 0 waits for the next round). Every finding is printed; with ``--evidence
DIR`` each one that can be proven offline is written there for ``cardledger verify
--evidence``. The entries and the held checkpoint are kept in ``--state DIR`` between runs.
Exit 1 on any finding, 2 if the service cannot be read; ``--once`` does one round.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from projections.transparency.monitor import (
    ListedGame,
    fork_evidence,
    game_evidence,
    listed_games,
    tree_of,
)
from projections.transparency.notes import NoteError, Policy, SignedNote, Verifier
from projections.transparency.receipts import check_consistency, parse_policy
from projections.transparency.tiles import WIDTH, bundle_entries, entry_bundle, tile_path

END_GRACE_SECONDS = 60.0  # the sequencer signs an end within about a second
OVER_STATUSES = ("finished", "cancelled")


class Monitor:
    def __init__(
        self,
        http: httpx.Client,
        policy: Policy,
        state: Path,
        evidence: Path | None,
        *,
        end_grace: float = END_GRACE_SECONDS,
        clock: Callable[[], float] = time.time,
    ):
        self._http = http
        self._policy = policy
        self._state = state
        self._evidence = evidence
        self._end_grace = end_grace
        self._clock = clock
        self.findings: list[str] = []
        self._started = 0.0
        self._over: dict[str, float] = {}  # game: when first seen over with no end logged

    def round(self) -> list[str]:
        """One round; the findings it made."""
        self.findings = []
        self._started = self._clock()  # before the checkpoint is fetched
        seen_over = self._seen_over()
        self._over = {}
        note = self._get("/log/checkpoint").text
        checkpoint = SignedNote.parse(note).checkpoint
        self._policy.accept(SignedNote.parse(note))
        held_note, held = self._held()
        if held_note is not None:
            older = SignedNote.parse(held_note).checkpoint
            if checkpoint.size < older.size:
                self._found("the log shrank", None)
                return self.findings
            proof = self._get(f"/log/consistency?from={older.size}&to={checkpoint.size}").json()
            try:
                check_consistency(older, checkpoint, proof["proof"])
            except ValueError as error:
                self._found(f"checkpoint {checkpoint.size} does not extend {older.size}: {error}")
        entries = held + self._entries(len(held), checkpoint.size)
        if tree_of(entries).root(checkpoint.size) != checkpoint.root:
            served = self._entries(0, checkpoint.size)
            evidence = None if held_note is None else fork_evidence(held_note, held, note, served)
            self._found("the served entries do not make the signed root", evidence)
            return self.findings
        self._keep(note, entries)
        for game in listed_games(entries).values():
            self._check(game, seen_over)
        (self._state / "over.json").write_text(json.dumps(self._over))
        return self.findings

    def _check(self, game: ListedGame, seen_over: dict[str, float]) -> None:
        for index in game.others:
            self._found(f"entry {index} repeats or precedes game {game.game_id}'s creation")
        if game.created is None:
            return
        first = self._http.get(f"/games/{game.game_id}/events?after=0&limit=1")
        at, created = game.created
        if first.status_code == 404:
            what = "an abandoned deal" if game.ended is None else "a dropped game"
            at = at if game.ended is None else game.ended[0]
            self._found(f"game {game.game_id} is on record but gone: {what}", (at, None))
            return
        first.raise_for_status()
        payload = first.json()["events"][0]["payload"]
        if payload.get("seed_commitment") != created.commitment:
            bundle = self._export(game)
            self._found(f"game {game.game_id} was dealt from another commitment", (at, bundle))
        if game.ended is not None:
            at, ended = game.ended
            audit = self._get(f"/games/{game.game_id}/audit").json()
            if (audit["head_version"], audit["chain_head"]) != (ended.version, ended.head):
                bundle = self._export(game)
                self._found(f"game {game.game_id} no longer ends as on record", (at, bundle))
        else:
            self._check_end_logged(game, at, seen_over.get(str(game.game_id)))

    def _check_end_logged(self, game: ListedGame, at: int, seen: float | None) -> None:
        """A game the service serves as over must have its end in the log: one held back past
        the grace is a deal the operator kept off the record (or a game left unended)."""
        status = self._get(f"/games/{game.game_id}").json()["status"]
        if status not in OVER_STATUSES:
            return
        seen = self._clock() if seen is None else seen
        self._over[str(game.game_id)] = seen
        waited = self._started - seen
        if waited >= self._end_grace:
            finding = f"game {game.game_id} is {status} but the log holds no end of it"
            self._found(
                f"{finding} {waited:.0f} s after it was seen over", (at, self._export(game), True)
            )

    def _found(self, finding: str, evidence: Any = None) -> None:
        self.findings.append(finding)
        print(f"FINDING  {finding}", flush=True)
        if self._evidence is None or evidence is None:
            return
        if isinstance(evidence, tuple):
            note, entries = self._kept()
            at, served, *later = evidence  # (index, bundle), and True to prove an end missing
            evidence = game_evidence(note, entries, at, served, later=bool(later))
        self._evidence.mkdir(parents=True, exist_ok=True)
        path = self._evidence / f"evidence-{len(self.findings)}.json"
        path.write_text(json.dumps(evidence, indent=1))
        print(f"         evidence: {path}", flush=True)

    def _export(self, game: ListedGame) -> str | None:
        answer = self._http.get(f"/games/{game.game_id}/export")
        return answer.text if answer.status_code == 200 else None

    def _get(self, path: str) -> httpx.Response:
        answer = self._http.get(path)
        answer.raise_for_status()
        return answer

    def _entries(self, start: int, end: int) -> list[bytes]:
        found: list[bytes] = []
        for tile in range(start // WIDTH, (end + WIDTH - 1) // WIDTH):
            width = min(WIDTH, end - tile * WIDTH)
            bundle = self._get(f"/log/{tile_path('entries', tile, width)}").content
            found += bundle_entries(bundle)[max(0, start - tile * WIDTH) :]
        return found

    def _seen_over(self) -> dict[str, float]:
        kept = self._state / "over.json"
        return dict(json.loads(kept.read_text())) if kept.exists() else {}

    def _held(self) -> tuple[str | None, list[bytes]]:
        note = self._state / "checkpoint.txt"
        if not note.exists():
            return None, []
        return note.read_text(), bundle_entries((self._state / "entries.bin").read_bytes())

    def _kept(self) -> tuple[str, list[bytes]]:
        note, entries = self._held()
        assert note is not None
        return note, entries

    def _keep(self, note: str, entries: list[bytes]) -> None:
        self._state.mkdir(parents=True, exist_ok=True)
        (self._state / "entries.bin").write_bytes(entry_bundle(entries))
        (self._state / "checkpoint.txt").write_text(note)


def run(args: argparse.Namespace) -> int:
    try:
        with httpx.Client(base_url=args.url.rstrip("/"), timeout=10) as http:
            if args.policy:
                policy = parse_policy(Path(args.policy).read_text())
            else:
                key = args.log_key or http.get("/log/key").text
                policy = Policy(Verifier.parse(key), (), 0)
            evidence = args.evidence and Path(args.evidence)
            monitor = Monitor(http, policy, Path(args.state), evidence, end_grace=args.end_grace)
            while True:
                findings = monitor.round()
                if args.once:
                    print(f"monitor: {len(findings)} findings", flush=True)
                    return 1 if findings else 0
                time.sleep(args.interval)
    except (httpx.HTTPError, OSError, NoteError, ValueError) as error:
        print(f"monitor: cannot follow the log: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


def add_parser(commands: Any) -> None:
    monitor = commands.add_parser("monitor", help="follow the witnessed log and check its games")
    monitor.add_argument("--url", required=True, help="the service's base URL")
    monitor.add_argument("--log-key", help="the log's verifier key (default: GET /log/key)")
    monitor.add_argument("--policy", metavar="FILE", help="accept checkpoints under this policy")
    monitor.add_argument(
        "--state",
        default="var/monitor",
        metavar="DIR",
        help="the checkpoint and entries kept between rounds (default: %(default)s)",
    )
    monitor.add_argument("--evidence", metavar="DIR", help="write evidence of each finding here")
    monitor.add_argument("--once", action="store_true", help="one round, then exit")
    monitor.add_argument(
        "--end-grace",
        type=float,
        default=END_GRACE_SECONDS,
        metavar="SECONDS",
        help="how long a game served as over may lack its end in the log (default: %(default)s)",
    )
    monitor.add_argument(
        "--interval", type=float, default=10.0, help="seconds between rounds (default: %(default)s)"
    )
    monitor.set_defaults(run=run)
