"""`serve --workers N`: uvicorn's supervisor, and why it replaced a worker, in its log.

The supervisor pings each worker and kills one that does not answer within its health-check
timeout, a starting worker included. On a busy host a worker can need longer than uvicorn's
default 5 s just to start (docs/reliability.md has the figures), and the supervisor then kills
and restarts workers in a loop, logging only "Child process [N] died". We pass the timeout
(``--worker-timeout``, CARDLEDGER_WORKER_TIMEOUT) and add to each such line what happened and
which setting to raise.
"""

from __future__ import annotations

import argparse
import logging
import re

from service.numbers import whole_number

SUPERVISOR_LOG = "uvicorn.error"  # the logger uvicorn's multiprocess supervisor writes to

# uvicorn's own lines (uvicorn/supervisors/multiprocess.py), and what each means here.
DIED = re.compile(r"Child process \[\d+\] died")
FAILED_TO_START = re.compile(r"Child process \[\d+\] failed to start")
NOT_READY = re.compile(r"New child process \[\d+\] was not ready in time")


def worker_timeout(text: str) -> int:
    """argparse's type for ``--worker-timeout``: whole seconds, at least 1."""
    seconds = whole_number(text)
    if seconds is None or seconds < 1:
        raise argparse.ArgumentTypeError(f"a whole number of seconds, at least 1, not {text!r}")
    return seconds


class WorkerDeaths(logging.Filter):
    """Adds to the supervisor's line about a replaced worker why it happened (a filter that
    drops nothing)."""

    def __init__(self, timeout: int) -> None:
        super().__init__()
        self.timeout = timeout

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        raise_it = (
            "a worker still starting on a busy host may need longer: raise --worker-timeout"
            f" or CARDLEDGER_WORKER_TIMEOUT (now {self.timeout} s)"
        )
        if DIED.match(message):
            why = (
                "it ended, or it did not answer the supervisor's health check within"
                f" {self.timeout} s and was killed; {raise_it}"
            )
        elif NOT_READY.match(message):
            why = f"it was not serving within {self.timeout} s; {raise_it}"
        elif FAILED_TO_START.match(message):
            why = "it failed before serving (its error is above) and would fail the same again"
        else:
            return True
        record.msg, record.args = f"{message}: {why}", ()
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        return True


def explain_worker_deaths(timeout: int) -> None:
    """From now on, the supervisor's lines about replaced workers say why (see the module)."""
    logger = logging.getLogger(SUPERVISOR_LOG)
    for existing in [f for f in logger.filters if isinstance(f, WorkerDeaths)]:
        logger.removeFilter(existing)
    logger.addFilter(WorkerDeaths(timeout))
