"""The last backstop against a hanging run, after every test has ended.

Each test has its limits (pyproject.toml: pytest-timeout, then pytest's faulthandler with
`faulthandler_exit_on_timeout`). What runs after the last test has none: the interpreter waits
at exit for every thread that is not a daemon, and one a test left blocked would hold the run
(and CI) forever. So when pytest is done, faulthandler is armed once more with the same limit:
if the process is still alive then, every thread's stack goes to the terminal and it exits.
"""

from __future__ import annotations

import faulthandler
import os

import pytest

REAL_STDERR = pytest.StashKey[int]()


def pytest_configure(config: pytest.Config) -> None:
    # Output capture is suspended while plugins are configured: fd 2 is the real stderr here,
    # and a copy of it stays so even while the tests run with fd 2 captured.
    config.stash[REAL_STDERR] = os.dup(2)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    try:
        limit = float(config.getini("faulthandler_timeout") or 0)
    except ValueError:  # pytest's faulthandler plugin is off (-p no:faulthandler)
        limit = 0
    if limit > 0 and REAL_STDERR in config.stash:
        # The copy of stderr stays open: faulthandler writes to it until the process ends.
        faulthandler.dump_traceback_later(limit, exit=True, file=config.stash[REAL_STDERR])
