"""`cardledger simulate`: what a load run reports and shows, and the sync bot table tests use.

The bots themselves (async, many games at once) are in ``service.tools.load``. ``Table`` below is
the same bot, one step at a time over a sync ``httpx`` client, for tests that look between steps.
"""

from __future__ import annotations

import asyncio
import math
import random
import sys
import uuid
from collections import Counter, deque
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from datetime import datetime
from time import monotonic
from typing import Any, BinaryIO, TextIO

import httpx
import msgspec

from domain import game
from domain.aggregate import GameAggregate

KINDS = ("command", "view", "other")  # command POSTs, seat view GETs, everything else


class GameResult(msgspec.Struct):
    """One game of a run: how it ended, or the error that abandoned it."""

    index: int
    game_id: str | None
    status: str  # the game's own status, or "abandoned"
    scores: Any = None
    winners: Any = None
    audit: str | None = None  # the audit's verdict; None if not audited
    error: str | None = None
    commands: int = 0


def zero_counts() -> dict[str, int]:
    return dict.fromkeys(KINDS, 0)


def no_latencies() -> dict[str, list[float]]:
    return {kind: [] for kind in KINDS}


class LoadReport(msgspec.Struct):
    """Requests sent and their latencies (seconds) per kind, refusals and errors by code."""

    wall_seconds: float = 0.0
    counts: dict[str, int] = msgspec.field(default_factory=zero_counts)
    latencies: dict[str, list[float]] = msgspec.field(default_factory=no_latencies)
    refusals: dict[str, int] = msgspec.field(default_factory=dict)
    errors: dict[str, int] = msgspec.field(default_factory=dict)
    error_examples: dict[str, str] = msgspec.field(default_factory=dict)  # the first, per kind
    games: list[GameResult] = msgspec.field(default_factory=list)

    def count_refusal(self, code: str) -> None:
        self.refusals[code] = self.refusals.get(code, 0) + 1

    def count_error(self, kind: str, message: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1
        self.error_examples.setdefault(kind, message)

    def commands_per_second(self) -> float:
        return self.counts["command"] / self.wall_seconds if self.wall_seconds else 0.0

    def requests_per_second(self) -> float:
        return sum(self.counts.values()) / self.wall_seconds if self.wall_seconds else 0.0

    def percentile(self, kind: str, fraction: float) -> float | None:
        """The nearest-rank percentile (``fraction`` 0.5 for p50) of ``kind``, in seconds."""
        ordered = sorted(self.latencies[kind])
        if not ordered:
            return None
        return ordered[min(len(ordered), max(1, math.ceil(fraction * len(ordered)))) - 1]

    def all_finished_and_valid(self, *, audited: bool) -> bool:
        finished = all(result.status == "finished" for result in self.games)
        return finished and (not audited or all(r.audit == "valid" for r in self.games))


class ProgressBar:
    """Games done, commands and their current rate, errors: redrawn in place on a terminal,
    plain lines (less often) into a log."""

    def __init__(self, report: LoadReport, total: int, stream: TextIO) -> None:
        self.report, self.total, self.stream = report, total, stream
        self.tty = stream.isatty()
        self.interval = 0.25 if self.tty else 2.0
        self.samples: deque[tuple[float, int]] = deque([(monotonic(), 0)], maxlen=9)

    def line(self) -> str:
        commands = self.report.counts["command"]
        self.samples.append((monotonic(), commands))
        (then, before), (now, after) = self.samples[0], self.samples[-1]
        rate = (after - before) / (now - then) if now > then else 0.0
        done = len(self.report.games)
        filled = 20 * done // self.total if self.total else 20
        bar = "#" * filled + "-" * (20 - filled)
        errors = sum(self.report.errors.values())
        return (
            f"games {done}/{self.total} [{bar}] {commands} commands, {rate:.0f}/s, {errors} errors"
        )

    def draw(self, *, final: bool = False) -> None:
        if self.tty:
            self.stream.write("\r" + self.line() + "\x1b[K" + ("\n" if final else ""))
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            self.draw()


@asynccontextmanager
async def progress_bar(
    report: LoadReport, total: int, *, enabled: bool, stream: TextIO | None = None
) -> AsyncIterator[None]:
    """Show the run's progress on stderr while the body runs."""
    if not enabled:
        yield
        return
    bar = ProgressBar(report, total, stream or sys.stderr)
    drawing = asyncio.create_task(bar.run())
    try:
        yield
    finally:
        drawing.cancel()
        with suppress(asyncio.CancelledError):
            await drawing
        bar.draw(final=True)


def write_results(report: LoadReport, out: BinaryIO) -> None:
    """One JSON line per game, in the order they were started."""
    for result in report.games:
        out.write(msgspec.json.encode(result) + b"\n")


def milliseconds(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.1f}"


def counted(counts: dict[str, int]) -> str:
    return ", ".join(f"{key} {n}" for key, n in sorted(counts.items())) or "none"


def summary_text(report: LoadReport, *, audited: bool) -> str:
    """What a run did, for people: games, throughput, latencies, refusals, errors, audits."""
    statuses = Counter(result.status for result in report.games)
    others = "".join(
        f", {n} {status}"
        for status, n in statuses.items()
        if status not in ("finished", "abandoned")
    )
    lines = [
        f"games     {statuses['finished']} finished, {statuses['abandoned']} abandoned{others}"
        f" (of {len(report.games)})",
        f"commands  {report.counts['command']} sent in {report.wall_seconds:.2f} s:"
        f" {report.commands_per_second():.1f} commands/s",
        "latency   p50 / p90 / p99 / max, ms",
    ]
    for kind in KINDS:
        figures = " / ".join(
            milliseconds(report.percentile(kind, q)) for q in (0.5, 0.9, 0.99, 1.0)
        )
        lines.append(f"  {kind:8}{figures}  ({len(report.latencies[kind])} answers)")
    lines.append(f"refusals  {counted(report.refusals)}")
    lines.append(f"errors    {counted(report.errors)}")
    lines += [f"  {kind}: {example}" for kind, example in sorted(report.error_examples.items())]
    if audited:
        valid = sum(result.audit == "valid" for result in report.games)
        audits = [result for result in report.games if result.audit is not None]
        unread = statuses["finished"] - len(audits)  # the audit request itself failed
        missing = f", {unread} could not be read" if unread else ""
        lines.append(f"audits    {valid} valid, {len(audits) - valid} invalid{missing}")
    else:
        lines.append("audits    not run (--no-audit)")
    return "\n".join(lines)


def seated_game(
    variant: str,
    seats: int,
    options: dict[str, Any],
    rng: random.Random,
    now: datetime,
    client_seeds: Sequence[str] = (),
) -> GameAggregate:
    """A game in process, every seat taken by players p0..pN-1, its seed drawn from ``rng``
    (the client seeds, if not given: a random one for seat 0, none for the others)."""
    game_id = uuid.UUID(int=rng.getrandbits(128), version=4)
    seeds = list(client_seeds) or [str(rng.random()), *[""] * (seats - 1)]
    events = game.create(
        game_id=str(game_id),
        variant_id=variant,
        seat_count=seats,
        options=options,
        creator_id="p0",
        creator_name="P0",
        client_seed=seeds[0],
        seed=rng.randbytes(32),
    )
    aggregate = GameAggregate.open(game_id, events, actor="seat:0", command_id="c0", now=now)
    for seat in range(1, seats):
        aggregate.join(
            player_id=f"p{seat}",
            name=f"P{seat}",
            client_seed=seeds[seat],
            command_id=f"j{seat}",
            now=now,
        )
    return aggregate


class Table:
    """One game played by bots, each seat with its own registered player and token."""

    def __init__(self, http: httpx.Client, variant: str, seats: int, options: dict[str, Any]):
        self.http = http
        self.tokens = [
            http.post("/players", json={"name": f"bot {seat}"}).raise_for_status().json()["token"]
            for seat in range(seats)
        ]
        body = {"variant": variant, "seats": seats, "options": options}
        created = http.post("/games", json=body, headers=self.auth(0)).raise_for_status()
        self.game_id = str(created.json()["game_id"])
        for seat in range(1, seats):
            http.post(f"/games/{self.game_id}/join", headers=self.auth(seat)).raise_for_status()

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def step(self, rng: random.Random) -> bool:
        """One random legal command from a seat the game waits for; False once it is over."""
        public = self.http.get(f"/games/{self.game_id}").raise_for_status().json()
        if public["status"] != "active":
            return False
        if not public["to_act"]:
            return True  # only the server can move (a deadline): wait for it
        seat = rng.choice(public["to_act"])
        mine = self.http.get(f"/games/{self.game_id}/view", headers=self.auth(seat)).json()
        choices = [c for c in mine["legal_commands"] if c["type"] not in ("leave", "vote_cancel")]
        if choices:
            self.http.post(
                f"/games/{self.game_id}/commands",
                json=rng.choice(choices),
                headers=self.auth(seat),
            )
        return True
