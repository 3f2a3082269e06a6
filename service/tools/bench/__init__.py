"""`cardledger bench`: one table, every figure beside a baseline measured in the same run.

Sections (each a module with ``figures(quick) -> list[Figure]``): ``http`` (commands over HTTP
at 1/16/64 concurrent games, both stores, 1 and 2 workers), ``store`` (the write path without
HTTP), ``engine`` (random playouts through the rules), ``bots`` (a level-5 bot's decision beside
a random game), ``ratings`` (how well ratings predict finishing order in a simulated population,
beside a win-rate table), ``growth`` (replay, audit and memory as games grow) and ``live``
(projection lag under load), ``tlog`` (commands with and without the witnessed log's sequencer,
and the entries/s it takes), ``cpu`` (instructions per command under callgrind beside a bare
endpoint's per request, and where they go by stage). Nothing here is asserted: the test suite
never times anything.
"""

from __future__ import annotations

import importlib
import os
import platform
import re
import sqlite3
import subprocess
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from service.tools.bench.figures import Figure, markdown_table, text_table

SECTIONS = ("engine", "bots", "ratings", "growth", "store", "tlog", "http", "live", "cpu")
BEGIN = "<!-- bench:begin -->"
END = "<!-- bench:end -->"


def machine() -> list[str]:
    """What the figures were measured on."""
    cpu = "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        found = re.search(r"model name\s*:\s*(.+)", cpuinfo.read_text())
        cpu = found.group(1).strip() if found else cpu
    memory = ""
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        found = re.search(r"MemTotal:\s*(\d+) kB", meminfo.read_text())
        memory = f", {int(found.group(1)) / 2**20:.0f} GiB RAM" if found else ""
    return [
        f"{os.cpu_count()} cores ({cpu}){memory}, {platform.system()} {platform.release()}",
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, {postgres()}",
        f"measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
    ]


def postgres() -> str:
    try:
        done = subprocess.run(["psql", "--version"], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return "no PostgreSQL client"
    return done.stdout.strip() or "no PostgreSQL client"


def run(sections: Sequence[str], *, quick: bool) -> list[Figure]:
    figures: list[Figure] = []
    for name in sections:
        module = importlib.import_module(f"service.tools.bench.{name}")
        found: list[Figure] = module.figures(quick)
        figures += found
        print(text_table(found), flush=True)
        print(flush=True)
    return figures


def write_report(path: Path, figures: list[Figure]) -> None:
    """Put the table between the markers of ``path``, keeping the prose around them."""
    block = "\n".join(
        [BEGIN, *(f"- {line}" for line in machine()), "", markdown_table(figures), END]
    )
    text = path.read_text() if path.exists() else f"# Benchmarks\n\n{BEGIN}\n{END}\n"
    if BEGIN not in text or END not in text:
        text = text.rstrip("\n") + f"\n\n{BEGIN}\n{END}\n"
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    path.write_text(head + block + tail)


def main(sections: Sequence[str] = SECTIONS, *, quick: bool = False, output: str = "") -> int:
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        print(f"unknown sections: {', '.join(unknown)} (choose from {', '.join(SECTIONS)})")
        return 2
    for line in machine():
        print(line)
    print()
    figures = run(sections, quick=quick)
    print(text_table(figures))
    if output:
        write_report(Path(output), figures)
        print(f"\nwritten to {output}")
    return 0
