"""A server process under ``valgrind --tool=callgrind``, counting instructions only when told.

The server starts with instrumentation off (``--instr-atstart=no``: start-up and warm-up run at
valgrind's uninstrumented pace and count nothing); ``callgrind_control -i on`` starts the count,
``callgrind_control -d`` writes what was counted since (and zeroes it), ``-i off`` stops it. All
threads of the process count (``--separate-threads=no``, valgrind's default, sums them into one
total); child processes are not followed (``--trace-children=no``), nor is anything outside the
process: the load client, and PostgreSQL's server process.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

TOTALS = re.compile(r"^totals:\s*(\d+)", re.MULTILINE)
SUMMARY = re.compile(r"^summary:\s*(\d+)", re.MULTILINE)
DUMP_WAIT = 120.0  # seconds a dump may take to appear (valgrind is slow, the machine shared)


def available() -> bool:
    return shutil.which("valgrind") is not None and shutil.which("callgrind_control") is not None


def launcher(output: Path) -> list[str]:
    """The words to put before ``python ...`` to run it under callgrind, dumps to ``output.N``."""
    return [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        "--trace-children=no",
        "--separate-threads=no",
        f"--callgrind-out-file={output}",
    ]


def instructions(text: str) -> int:
    """The instructions (``Ir``) one callgrind output file counted, all threads together."""
    found = TOTALS.search(text) or SUMMARY.search(text)
    if found is None:
        raise ValueError("not a callgrind output: no totals: or summary: line")
    return int(found.group(1))


class Counter:
    """Switches the count of a process under callgrind on and off, and reads what it counted."""

    def __init__(self, pid: int, output: Path) -> None:
        self.pid = pid
        self.output = output
        self.dumps = 0

    def control(self, *words: str) -> None:
        done = subprocess.run(
            ["callgrind_control", *words, str(self.pid)],
            capture_output=True,
            text=True,
            timeout=DUMP_WAIT,
        )
        if done.returncode != 0 or "OK" not in done.stdout:
            raise RuntimeError(f"callgrind_control {' '.join(words)}: {done.stdout}{done.stderr}")

    def start(self) -> None:
        self.control("--instr=on")

    def stop(self) -> None:
        self.control("--instr=off")

    def dump(self) -> int:
        """The instructions counted since the last dump (or since counting started)."""
        self.control("--dump")
        self.dumps += 1
        path = Path(f"{self.output}.{self.dumps}")
        give_up = time.monotonic() + DUMP_WAIT
        while True:
            text = path.read_text() if path.exists() else ""
            if TOTALS.search(text) or SUMMARY.search(text):
                return instructions(text)
            if time.monotonic() > give_up:
                raise RuntimeError(f"callgrind wrote no dump to {path}")
            time.sleep(0.2)
