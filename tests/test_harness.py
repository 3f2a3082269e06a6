"""The suite cannot hang, and cleans up after runs that were killed: a test past its limit fails
with every thread's stack, one deaf to that is ended by the backstop, and so is a run whose
threads would keep the interpreter from exiting; old unused test databases are swept."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
import uuid
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from tests.conftest import POSTGRES_URL, _with_database
from tests.support.databases import new_test_database_name, sweep_stale_databases

ROOT = Path(__file__).resolve().parent.parent
BOUND = 120  # seconds: a run that hangs never ends, one that is stopped ends long before


def run_pytest(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    """Run one test file under the project's pytest configuration, with limits of 1 s per test
    and 3 s for the backstops, as `make test` would run it."""
    test_file = tmp_path / "test_subject.py"
    test_file.write_text(textwrap.dedent(source))
    command = [
        *(sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml")),
        *("--rootdir", str(tmp_path), "-p", "no:cacheprovider", "-p", "tests.harness"),
        *("-o", "timeout=1", "-o", "faulthandler_timeout=3", str(test_file)),
    ]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=BOUND
    )


def test_a_test_past_its_limit_fails_with_the_stacks(tmp_path: Path) -> None:
    result = run_pytest(
        tmp_path,
        """
        import time

        def test_sleeps_too_long():
            time.sleep(BOUND)
        """.replace("BOUND", str(BOUND)),
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Failed: Timeout (>1.0s) from pytest-timeout" in result.stdout
    assert "1 failed" in result.stdout


def test_a_test_deaf_to_the_alarm_is_dumped_and_ended(tmp_path: Path) -> None:
    result = run_pytest(
        tmp_path,
        """
        import signal
        import time

        def test_blocks_the_alarm():
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            time.sleep(BOUND)
        """.replace("BOUND", str(BOUND)),
    )
    assert result.returncode != 0
    assert "Timeout (0:00:03)!" in result.stderr  # on the real stderr, not captured away
    assert "in test_blocks_the_alarm" in result.stderr


def test_threads_left_running_cannot_hold_the_run_at_exit(tmp_path: Path) -> None:
    result = run_pytest(
        tmp_path,
        """
        import threading

        def test_leaves_a_thread_behind():
            threading.Thread(target=threading.Event().wait, name="left-behind").start()
        """,
    )
    assert "1 passed" in result.stdout
    assert result.returncode != 0  # the passing run was ended by the backstop, not by itself
    assert "Timeout (0:00:03)!" in result.stderr
    assert "in wait" in result.stderr


@pytest.mark.postgres
def test_the_sweep_drops_old_unused_test_databases_and_nothing_else(
    postgres_database: str,
) -> None:
    # A prefix of this test's own: the sweep never reaches another run's databases.
    prefix = f"cardledger_sweeptest_{uuid.uuid4().hex[:6]}_"
    four_hours_ago = int(time.time()) - 4 * 3600
    old = f"{prefix}{four_hours_ago}_{uuid.uuid4().hex[:12]}"
    old_in_use = f"{prefix}{four_hours_ago}_{uuid.uuid4().hex[:12]}"
    young = new_test_database_name(prefix)
    unnamed_age = f"{prefix}{uuid.uuid4().hex[:12]}"  # the older naming: aged by the server
    made = [old, old_in_use, young, unnamed_age]
    with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
        try:
            for name in made:
                admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            with psycopg.connect(_with_database(POSTGRES_URL, old_in_use)):
                assert sweep_stale_databases(admin, prefix=prefix) == [old]
                assert existing(admin, prefix) == sorted([old_in_use, young, unnamed_age])
                # Older than no time at all: the server's file time ages the old-style name.
                swept = sweep_stale_databases(admin, prefix=prefix, older_than=timedelta(0))
                assert unnamed_age in swept and old_in_use not in swept
        finally:
            for name in made:
                admin.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                )


def existing(admin: psycopg.Connection[tuple[str]], prefix: str) -> list[str]:
    rows = admin.execute(
        "SELECT datname FROM pg_database WHERE starts_with(datname, %s) ORDER BY datname",
        (prefix,),
    )
    return [name for (name,) in rows]
