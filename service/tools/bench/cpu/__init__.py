"""Section "cpu": a command's CPU counted in instructions, beside a bare endpoint's request.

Wall-clock rates on these shared machines drift by 2x; instruction counts do not. The server
(`cardledger serve`, 1 worker, SQLite and PostgreSQL) runs under callgrind (callgrind.py) with
the count off while it starts and plays a few games; the count runs while the load client,
outside valgrind, plays a fixed script (16 2-seat Open Hand games one after another, seeded
bots, each move a ``GET /view`` and a ``POST /commands`` as in the "http" section), and for
a few seconds after, so the background work the commands set off (read models, log
follower, sequencer, webhooks, queue follower) counts as well, in every thread of the process.
The baseline is the bare litestar endpoint (bare.py) under callgrind, driven by the same client
with 1,000 requests. The same script is counted again with 8 games at once (and the bare
endpoint with 8 clients): under load the background workers read the log once for the commands
of many games (a wake-up folds the writes of 20 ms), so a command's share of their work falls.

Under valgrind the script lasts ~50x longer than natively, so polls that go by the clock would
be counted ~50x over, and by however long the busy machine made the run: the background workers
run only when woken (woken_server.py; the commands wake them). What still ticks on an idle
server is counted for a few seconds after and printed, not taken out: what ticks still grows
with the wall time (a run four times as long on a busy machine counted 2% more on SQLite, 8% on
PostgreSQL), so compare runs of similar length; the figure's note gives the seconds counted.

Then the same script against a server under the stage profiler (stage_server.py, stages.py)
gives the shares by stage, scaled to the instructions counted: the stage table printed below the
figures. PostgreSQL's own server process is outside valgrind: its work is not counted.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import msgspec

from service.tools.bench.cpu import callgrind
from service.tools.bench.cpu.stages import STAGES, Profiled, background_by_thread, fold, table
from service.tools.bench.figures import Figure, number
from service.tools.bench.http import Served, bare, cardledger, hammered
from service.tools.bench.stores import STORES, fresh_store, postgres_available
from service.tools.load import play_games
from service.tools.simulate import LoadReport

SCRIPT_SEED = 27  # the same bots' choices every run
WARM_SEED = 1027


class Script(NamedTuple):
    games: int  # played one after another, counted
    warm_games: int  # played before, not counted
    bare_requests: int  # sent to the bare endpoint, counted
    settle: float  # seconds counted after the games: the background work they set off
    idle: float  # seconds counted with no request at all: what ticks meanwhile
    at_once: int  # games (and bare clients) at once in the second count


FULL = Script(games=16, warm_games=2, bare_requests=1000, settle=2.0, idle=3.0, at_once=8)
QUICK = Script(games=2, warm_games=1, bare_requests=100, settle=0.5, idle=1.0, at_once=2)


class Counted(NamedTuple):
    instructions: int
    commands: int
    requests: int
    idle_per_second: float  # instructions a second with no request
    seconds: float  # wall time counted (the games and settling)


def script(url: str, games: int, seed: int, at_once: int = 1) -> LoadReport:
    report = asyncio.run(
        play_games(
            url,
            variant="open-hand",
            seats=2,
            games=games,
            concurrency=at_once,
            options={},
            seed=seed,
            audit=False,
            progress=False,
        )
    )
    if report.errors:
        raise RuntimeError(f"the script met errors: {dict(report.errors)}")
    return report


def requests_of(report: LoadReport) -> int:
    return sum(report.counts.values())


def counted_service(store: str, plan: Script, at_once: int = 1) -> Counted:
    with tempfile.TemporaryDirectory(prefix="cardledger-callgrind-") as directory:
        output = Path(directory) / "callgrind.out"
        with (
            fresh_store(store) as settings,
            cardledger(settings, 1, callgrind.launcher(output), woken_only=True) as (
                url,
                process,
            ),
        ):
            script(url, plan.warm_games, WARM_SEED)
            counter = callgrind.Counter(process.pid, output)
            counter.start()
            started = time.monotonic()
            report = script(url, plan.games, SCRIPT_SEED, at_once)
            time.sleep(plan.settle)
            seconds = time.monotonic() - started
            used = counter.dump()
            idle_started = time.monotonic()
            time.sleep(plan.idle)
            idle = counter.dump() / (time.monotonic() - idle_started)
            counter.stop()
    return Counted(used, report.counts["command"], requests_of(report), idle, seconds)


def counted_bare(requests: int, at_once: int = 1) -> Counted:
    with tempfile.TemporaryDirectory(prefix="cardledger-callgrind-") as directory:
        output = Path(directory) / "callgrind.out"
        with bare(1, callgrind.launcher(output)) as (url, process):
            hammered(url, at_once, max(50, requests // 10))
            counter = callgrind.Counter(process.pid, output)
            counter.start()
            started = time.monotonic()
            report = hammered(url, at_once, requests)
            seconds = time.monotonic() - started
            used = counter.dump()
            counter.stop()
    if report.errors:
        raise RuntimeError(f"the bare endpoint met errors: {dict(report.errors)}")
    return Counted(used, 0, requests_of(report), 0.0, seconds)


def profiled_stages(store: str, plan: Script) -> tuple[dict[str, float], dict[str, float]]:
    """CPU seconds by stage over the script (natively, under the stage profiler), and the
    background threads' seconds by thread."""
    with tempfile.TemporaryDirectory(prefix="cardledger-stages-") as directory:
        output = Path(directory) / "profile.json"
        with fresh_store(store) as settings, cardledger(settings, 1, profiled=True) as served:
            script(served.url, plan.warm_games, WARM_SEED)
            steer(served, "start", "started")
            script(served.url, plan.games, SCRIPT_SEED)
            time.sleep(plan.settle)
            steer(served, f"stop {output}", "stopped")
        profiled = msgspec.json.decode(output.read_bytes(), type=Profiled)
    return fold(profiled), background_by_thread(profiled)


def steer(served: Served, line: str, answer: str) -> None:
    stdin, stdout = served.process.stdin, served.process.stdout
    assert stdin is not None and stdout is not None, "a profiled server has pipes"
    stdin.write(f"{line}\n".encode())
    stdin.flush()
    while (said := stdout.readline()) and said.strip() != answer.encode():
        pass
    if not said:
        raise RuntimeError(f"the profiled server never answered {line!r}")


def store_name(store: str) -> str:
    return "PostgreSQL" if store == "postgres" else "SQLite"


def store_figures(
    store: str, counted: Counted, floor: Counted, games: int, at_once: int = 1
) -> list[Figure]:
    played = "one after another" if at_once == 1 else f"{at_once} at once"
    script_words = (
        f"{games} games {played}, {counted.commands} commands, {counted.requests} "
        f"requests with the views and set-up, counted over {counted.seconds:.0f} s"
    )
    clients = "" if at_once == 1 else f", {at_once} clients"
    baseline = (
        f"bare litestar POST under callgrind, same client{clients}: per request ({floor.requests})"
    )
    measures = (
        ("instructions per command, everything counted", counted.commands, script_words),
        ("instructions per request (views, commands, set-up)", counted.requests, ""),
    )
    games_at_once = "" if at_once == 1 else f", {at_once} games at once"
    return [
        Figure(
            section="cpu",
            name=f"{store_name(store)}{games_at_once}: {what}",
            value=counted.instructions / per,
            unit="instr",
            baseline=baseline,
            baseline_value=floor.instructions / floor.requests,
            higher_is_better=False,
            note=note,
        )
        for what, per, note in measures
    ]


def stage_table(rows_by_store: dict[str, list[tuple[str, str, float]]]) -> str:
    """The stages as a markdown table: share and instructions a command, one pair per store."""
    stores = list(rows_by_store)
    header = ["stage", *(f"{store_name(s)} {what}" for s in stores for what in ("share", "instr"))]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for index, stage in enumerate(STAGES):
        cells = [stage]
        for store in stores:
            _, share, instructions = rows_by_store[store][index]
            cells += [share, number(instructions)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def figures(quick: bool) -> list[Figure]:
    if not callgrind.available():
        print("section cpu skipped: valgrind and callgrind_control are not installed")
        return []
    plan = QUICK if quick else FULL
    stores = [s for s in STORES if s != "postgres" or postgres_available()]
    floor = counted_bare(plan.bare_requests)
    loaded_floor = counted_bare(plan.bare_requests, plan.at_once)
    found: list[Figure] = []
    rows: dict[str, list[tuple[str, str, float]]] = {}
    for store in stores:
        counted = counted_service(store, plan)
        print(
            f"{store_name(store)}: {counted.instructions:,} instructions counted over "
            f"{counted.seconds:.1f} s (script and settling), {counted.idle_per_second:,.0f} a "
            "second when idle",
            flush=True,
        )
        found += store_figures(store, counted, floor, plan.games)
        loaded = counted_service(store, plan, plan.at_once)
        found += store_figures(store, loaded, loaded_floor, plan.games, plan.at_once)
        seconds, background = profiled_stages(store, plan)
        per_command = counted.instructions / counted.commands
        rows[store] = table(seconds, per_command)
        whole = sum(seconds.values()) or 1.0
        busiest = sorted(background.items(), key=lambda item: -item[1])
        threads = ", ".join(
            f"{name} {number(per_command * spent / whole)}" for name, spent in busiest if spent
        )
        print(f"{store_name(store)}: background threads, instructions a command: {threads}")
    print("\nWhere a command's instructions go (profile shares scaled to callgrind's count):")
    print(stage_table(rows), flush=True)
    return found
