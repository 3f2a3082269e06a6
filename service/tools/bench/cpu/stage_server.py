"""`cardledger serve` with every thread under a profiler, for the "cpu" section's stage table.

Run as ``python -m service.tools.bench.cpu.stage_server serve --port N --workers 1``: the arguments
are `cardledger`'s; background workers wait to be woken, as under callgrind (woken_server.py).
Each thread gets its own ``cProfile.Profile`` timed by its own CPU clock from its first call.
Lines on standard input steer it: ``start`` notes where every profile stands, ``stop PATH``
writes what each counted since to PATH (msgspec JSON, a ``stages.Profiled``: the profiles by
thread name and the profiler's overhead per call) and answers ``stopped`` on standard output.
"""

from __future__ import annotations

import cProfile
import sys
import threading
import time
from pathlib import Path
from typing import Any

import msgspec

from service.tools.bench.cpu.stages import Overhead, Profile, Profiled, calibrated, since, snapshot
from service.tools.bench.cpu.woken_server import quieten

profiles: list[tuple[str, cProfile.Profile]] = []
guard = threading.Lock()


def profiled() -> cProfile.Profile:
    profile = cProfile.Profile(time.thread_time)
    with guard:
        profiles.append((threading.current_thread().name, profile))
    return profile


def start_in_thread(*_: Any) -> None:
    """A new thread's first profile event: from here on, a profiler of its own counts it."""
    profiled().enable()


def taken() -> dict[int, tuple[str, Profile]]:
    with guard:
        held = list(profiles)
    return {
        index: (name, snapshot(profile.getstats())) for index, (name, profile) in enumerate(held)
    }


def steer(overhead: Overhead) -> None:
    """Reads ``start`` and ``stop`` from standard input (this thread is not profiled)."""
    marks: dict[int, tuple[str, Profile]] = {}
    for line in sys.stdin:
        word, _, path = line.strip().partition(" ")
        if word == "start":
            marks = taken()
            print("started", flush=True)
        elif word == "stop":
            counted: dict[str, Profile] = {}
            for index, (name, profile) in taken().items():
                earlier = marks.get(index, (name, {}))[1]
                counted[f"{name}#{index}"] = since(profile, earlier)
            Path(path).write_bytes(
                msgspec.json.encode(Profiled(overhead=overhead, threads=counted))
            )
            print("stopped", flush=True)


def main() -> None:
    from service.tools import cli  # imported before the profilers start: start-up is not counted

    quieten()  # as under callgrind (woken_server.py): the same work profiled as counted
    overhead = calibrated()
    threading.Thread(target=steer, args=(overhead,), name="steer", daemon=True).start()
    threading.setprofile(start_in_thread)
    profiled().enable()
    sys.exit(cli.main(sys.argv[1:]))


if __name__ == "__main__":
    main()
