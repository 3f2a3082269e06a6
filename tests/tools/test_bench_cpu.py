"""`cardledger bench` section "cpu": callgrind's counts read right, the stage profile folded right,
and a short run on SQLite giving well-formed figures.

Nothing here compares numbers with a bound: instruction counts are the benchmark's business.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from service.tools.bench import cpu
from service.tools.bench.cpu import callgrind
from service.tools.bench.cpu.stages import (
    STAGES,
    Function,
    Overhead,
    Pair,
    Profiled,
    calibrated,
    fold,
    since,
    stages_of,
)
from tests.tools.test_bench_sections import assert_well_formed

# The head of a real callgrind dump (valgrind 3.19), cut short.
DUMP = """# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 10162
cmd:  python /tmp/spin.py
part: 1

desc: I1 cache:
desc: D1 cache:
desc: LL cache:

desc: Timerange: Basic block 0 - 37530978
desc: Trigger: dump

positions: line
events: Ir
summary: 189243206


totals: 189243206
"""

NO_OVERHEAD = Overhead(callee=0.0, caller=0.0)
needs_valgrind = pytest.mark.skipif(not callgrind.available(), reason="valgrind is not installed")


def test_the_instructions_of_a_dump_are_its_totals() -> None:
    assert callgrind.instructions(DUMP) == 189_243_206
    assert callgrind.instructions(DUMP.replace("totals: 189243206", "")) == 189_243_206
    with pytest.raises(ValueError):
        callgrind.instructions("events: Ir\n")


@needs_valgrind
def test_counting_only_while_switched_on(tmp_path: Path) -> None:
    output = tmp_path / "callgrind.out"
    spin = "import sys\nfor line in sys.stdin:\n    sum(range(100_000))\n    print(line, end='')\n"
    process = callgrind_process(output, spin)
    try:
        counter = callgrind.Counter(process.pid, output)
        ask(process, "warm")
        counter.start()
        for word in ("one", "two", "three"):
            ask(process, word)
        busy = counter.dump()
        counter.stop()
        ask(process, "uncounted")
        counter.start()
        quiet = counter.dump()
        counter.stop()
    finally:
        process.kill()
        process.wait(timeout=60)
    assert busy > 1_000_000, "three sums of 100,000 numbers are millions of instructions"
    assert quiet < busy / 10, "nothing but the switching is counted once the work is done"


def callgrind_process(output: Path, source: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*callgrind.launcher(output), sys.executable, "-u", "-c", source],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )


def ask(process: subprocess.Popen[str], word: str) -> None:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(word + "\n")
    process.stdin.flush()
    assert process.stdout.readline().strip() == word


def test_a_function_no_rule_names_is_shared_among_its_callers() -> None:
    decide = "/src/domain/game.py:10(decide)"
    insert = "/src/service/store/sqlite.py:20(insert)"
    helper = "/usr/lib/python3.11/copy.py:5(deepcopy)"
    profile = {
        decide: Function(calls=1, own=3.0, callees={helper: Pair(calls=3, own=1.5, total=1.5)}),
        insert: Function(calls=1, own=2.0, callees={helper: Pair(calls=1, own=0.5, total=0.5)}),
        helper: Function(calls=4, own=2.0, callees={}),
    }
    seconds = stages_of(profile, NO_OVERHEAD)
    assert seconds["decide (domain)"] == pytest.approx(4.5)
    assert seconds["insert (store)"] == pytest.approx(2.5)
    assert sum(seconds.values()) == pytest.approx(7.0)


def test_the_profilers_overhead_comes_off_and_background_threads_count_whole() -> None:
    decide = "/src/domain/game.py:10(decide)"
    rules = "/src/domain/rules.py:3(legal)"
    main = {
        decide: Function(calls=2, own=1.0, callees={rules: Pair(calls=10, own=0.5, total=0.5)}),
        rules: Function(calls=10, own=0.5, callees={}),
    }
    poll = {"/src/service/background/projector.py:9(step)": Function(calls=5, own=0.2, callees={})}
    overhead = Overhead(callee=0.01, caller=0.02)
    folded = fold(Profiled(overhead=overhead, threads={"MainThread": main, "read-models": poll}))
    assert set(folded) == set(STAGES)
    assert folded["decide (domain)"] == pytest.approx((1.0 - 0.02 - 0.2) + (0.5 - 0.1))
    assert folded["background work"] == pytest.approx(0.2 - 0.05)


def test_a_snapshot_taken_later_counts_only_what_came_after() -> None:
    key, callee = "/src/domain/game.py:10(decide)", "<built-in method builtins.len>"
    earlier = {key: Function(calls=2, own=1.0, callees={callee: Pair(calls=2, own=0.1, total=0.1)})}
    later = {key: Function(calls=5, own=4.0, callees={callee: Pair(calls=3, own=0.3, total=0.3)})}
    delta = since(later, earlier)
    assert delta[key].calls == 3 and delta[key].own == pytest.approx(3.0)
    assert delta[key].callees[callee].calls == 1
    assert since(earlier, earlier) == {}


def test_calibration_finds_a_profiled_call_dearer_than_nothing() -> None:
    overhead = calibrated(calls=20_000)
    assert overhead.callee > 0 and overhead.caller >= 0


@needs_valgrind
@pytest.mark.timeout(600)  # valgrind starts two servers; a busy machine makes that minutes
def test_a_short_run_on_sqlite_gives_well_formed_figures(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cpu, "postgres_available", lambda: False)
    figures = cpu.figures(quick=True)
    assert_well_formed(figures, "cpu")
    printed = capsys.readouterr().out
    assert all(stage in printed for stage in STAGES), "the stage table names every stage"
