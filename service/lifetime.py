"""Processes that end with their parent, even a parent killed by SIGKILL (Linux).

A worker of `serve --workers N` whose supervisor is gone would otherwise go on serving the
port and holding database connections, with nobody left to stop it; the test suite's servers
likewise when the run is killed. The kernel sends ``signum`` when the parent dies (strictly:
when the thread that started this process ends, so start children from a long-lived thread).
"""

from __future__ import annotations

import ctypes
import os
import sys

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_prctl = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None


def end_with_parent(signum: int, parent: int) -> None:
    """Ask for ``signum`` when the parent dies; exit now if the parent ``parent`` (a pid) is
    already gone. Safe between fork and exec: it imports and allocates nothing."""
    if _prctl is None:
        return  # elsewhere a supervisor or a process group has to do it
    _prctl(PR_SET_PDEATHSIG, signum)
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)
