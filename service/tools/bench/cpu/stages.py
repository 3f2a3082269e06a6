"""Where a command's CPU goes: a deterministic profile of the server, folded into stages.

Every thread of the server runs under its own ``cProfile.Profile`` timed by the thread's own
CPU clock (``time.thread_time``: waiting for the disk, the network or the GIL costs nothing).
Each function's own time (``tottime``, its callees' excluded) goes to a stage by its module
(``RULES``, the first that matches). A function no rule names (the standard library, builtins
such as ``len``) takes the stage of whoever called it, pair by caller and callee, so
``json.dumps`` counts where it was called from. Threads other than the event loop's and the
request threads (the ``store`` pool) are background work, whatever they run.

The profiler's own overhead lands on the functions that make many calls, so the shares lean
towards call-heavy stages (the framework's layers) and away from C-heavy ones (SQLite, hashing,
msgspec): read them as a map of where to look, scaled to the instructions callgrind counted.
"""

from __future__ import annotations

import cProfile
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

# (stage, what a code key starts with or contains); a code key is "path:line(name)" for Python
# code and "<built-in method name of ...>" for C functions.
RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("hash/seal", ("/domain/chain.py", "/domain/fairness.py", "/hmac.py", "hashlib", "_hashlib")),
    ("auth", ("/service/http/authentication.py", "/service/auth.py", "/application/players.py")),
    ("decode", ("/litestar/_kwargs/", "/litestar/_signature/", "/domain/commands.py")),
    ("encode answer", ("/litestar/response/", "/litestar/serialization/")),
    ("render view", ("/domain/perspective.py", "/projections/", "/application/perspectives.py")),
    ("render view", ("/application/queries.py",)),
    ("encode events", ("/service/store/mapper.py", "/eventsourcing/persistence.py")),
    ("encode events", ("/eventsourcing/domain.py",)),
    ("insert (store)", ("/service/store/", "/eventsourcing/", "psycopg", "sqlite3")),
    ("decide (domain)", ("/domain/", "/bots/")),
    ("application", ("/service/application/",)),
    ("routing, middleware", ("/litestar/", "/service/http/", "/prometheus_client/", "/limits/")),
    ("HTTP parse, event loop", ("/uvicorn/", "httptools", "/asyncio/", "uvloop", "/anyio/")),
    ("HTTP parse, event loop", ("/concurrent/futures/",)),
)
STAGES = (
    "HTTP parse, event loop",
    "routing, middleware",
    "auth",
    "decode",
    "decide (domain)",
    "application",
    "hash/seal",
    "encode events",
    "insert (store)",
    "render view",
    "encode answer",
    "background work",
    "other",
)
# The event loop, the pool blocking calls hop to, and SQLite's one writer doing their inserts.
REQUEST_THREADS = ("MainThread", "store", "sqlite-writer")


class Pair(msgspec.Struct, array_like=True):
    """What a callee cost while called from one caller."""

    calls: int
    own: float  # seconds in the callee itself
    total: float  # with its own callees


class Function(msgspec.Struct, array_like=True):
    calls: int
    own: float
    callees: dict[str, Pair]


Profile = dict[str, Function]  # one thread's functions by code key


class Overhead(msgspec.Struct, frozen=True):
    """The profiler's own cost that lands in a function's time, per call: ``callee`` on the
    function called, ``caller`` on the function calling (measured on an empty function)."""

    callee: float
    caller: float


class Profiled(msgspec.Struct):
    overhead: Overhead
    threads: dict[str, Profile]  # by thread name


def calibrated(calls: int = 200_000) -> Overhead:
    """How much a profiled call of an empty function costs, on this thread's CPU clock."""

    def empty() -> None:
        pass

    def loop() -> None:
        for _ in range(calls):
            empty()

    started = time.thread_time()
    loop()
    plain = time.thread_time() - started
    profile = cProfile.Profile(time.thread_time)
    profile.enable()
    loop()
    profile.disable()
    own = {
        code_key(entry.code).rpartition("(")[2]: entry.inlinetime for entry in profile.getstats()
    }
    return Overhead(callee=own["empty)"] / calls, caller=max(0.0, own["loop)"] - plain) / calls)


def corrected(function: Function, overhead: Overhead) -> float:
    """A function's own time without the profiler's overhead in it."""
    made = sum(pair.calls for pair in function.callees.values())
    return max(0.0, function.own - overhead.callee * function.calls - overhead.caller * made)


def code_key(code: object) -> str:
    if isinstance(code, str):
        return code
    filename = getattr(code, "co_filename", "?")
    return f"{filename}:{getattr(code, 'co_firstlineno', 0)}({getattr(code, 'co_name', '?')})"


def snapshot(entries: Iterable[Any]) -> Profile:
    """A thread profiler's ``getstats()`` as plain data."""
    functions: Profile = {}
    for entry in entries:
        callees = {
            code_key(sub.code): Pair(calls=sub.callcount, own=sub.inlinetime, total=sub.totaltime)
            for sub in entry.calls or ()
        }
        functions[code_key(entry.code)] = Function(
            calls=entry.callcount, own=entry.inlinetime, callees=callees
        )
    return functions


def since(later: Profile, earlier: Profile) -> Profile:
    """What ``later`` counted after ``earlier`` was taken."""
    delta: Profile = {}
    for key, function in later.items():
        before = earlier.get(key, Function(calls=0, own=0.0, callees={}))
        callees = {}
        for callee, pair in function.callees.items():
            old = before.callees.get(callee, Pair(calls=0, own=0.0, total=0.0))
            if pair.calls > old.calls:
                callees[callee] = Pair(
                    calls=pair.calls - old.calls,
                    own=pair.own - old.own,
                    total=pair.total - old.total,
                )
        if function.calls > before.calls or callees:
            delta[key] = Function(
                calls=function.calls - before.calls, own=function.own - before.own, callees=callees
            )
    return delta


def rule_stage(key: str) -> str | None:
    for stage, marks in RULES:
        if any(mark in key for mark in marks):
            return stage
    return None


def stages_of(profile: Profile, overhead: Overhead) -> dict[str, float]:
    """Seconds of CPU by stage in one request thread's profile."""
    callers: dict[str, list[tuple[str, Pair]]] = defaultdict(list)
    for caller, function in profile.items():
        for callee, pair in function.callees.items():
            callers[callee].append((caller, pair))
    resolved: dict[str, str] = {}

    def stage_of(key: str, seen: frozenset[str] = frozenset()) -> str:
        if key in resolved:
            return resolved[key]
        found = rule_stage(key)
        if found is None:
            # Nobody names it: the stage of the caller that spent the most time in it.
            heaviest = sorted(callers.get(key, []), key=lambda item: -item[1].total)
            found = "other"
            for caller, _ in heaviest:
                if caller not in seen:
                    found = stage_of(caller, seen | {key})
                    break
        resolved[key] = found
        return found

    seconds: dict[str, float] = defaultdict(float)
    for key, function in profile.items():
        own = corrected(function, overhead)
        named = rule_stage(key)
        if named is not None:
            seconds[named] += own
            continue
        # Split the unnamed function's time among its callers, as each spent it.
        spent = sum(pair.own for _, pair in callers.get(key, [])) or 1.0
        shares = [(caller, pair.own / spent) for caller, pair in callers.get(key, [])]
        for caller, share in shares or [("", 1.0)]:
            seconds[stage_of(caller, frozenset({key})) if caller else "other"] += own * share
    return dict(seconds)


def fold(profiled: Profiled) -> dict[str, float]:
    """Seconds of CPU by stage over every thread."""
    total: dict[str, float] = dict.fromkeys(STAGES, 0.0)
    for name, profile in profiled.threads.items():
        if name.startswith(REQUEST_THREADS):
            for stage, seconds in stages_of(profile, profiled.overhead).items():
                total[stage] += seconds
        else:
            total["background work"] += thread_seconds(profile, profiled.overhead)
    return total


def thread_seconds(profile: Profile, overhead: Overhead) -> float:
    return sum(corrected(function, overhead) for function in profile.values())


def background_by_thread(profiled: Profiled) -> dict[str, float]:
    """Seconds of CPU of each background thread kind (numbers stripped from the names)."""
    found: dict[str, float] = defaultdict(float)
    for name, profile in profiled.threads.items():
        if not name.startswith(REQUEST_THREADS):
            found[name.rstrip("0123456789#_-")] += thread_seconds(profile, profiled.overhead)
    return dict(found)


def table(seconds: Mapping[str, float], per_command: float) -> list[tuple[str, str, float]]:
    """Rows (stage, share, instructions a command), the shares scaled to ``per_command``."""
    whole = sum(seconds.values()) or 1.0
    return [
        (
            stage,
            f"{seconds.get(stage, 0.0) / whole:.1%}",
            per_command * seconds.get(stage, 0.0) / whole,
        )
        for stage in STAGES
    ]
