"""`cardledger serve` with its background threads run only when woken, for the "cpu" section.

Run as ``python -m service.tools.bench.cpu.woken_server serve --port N --workers 1``. Every
background worker (service/worker.py) that would also wake itself on a clock (the projector, the
followers, the webhooks, the bots every 0.2-1 s) waits until something wakes it: a commit, a
NOTIFY. Under valgrind a script lasts ~50x longer than natively, so clock-driven polls would be
counted ~50x over, and by how long the machine made the run last; the work commands set off,
which wakes the workers, is still done and counted.
"""

from __future__ import annotations

import sys
from typing import Any

from service.worker import Worker

clocked = Worker.__init__


def woken_only(self: Worker, *args: Any, idle: float | None, **kwargs: Any) -> None:
    clocked(self, *args, idle=None if idle else idle, **kwargs)


def quieten() -> None:
    """From here on, new background workers wait to be woken (``idle`` 0 is a busy loop of
    blocking reads, the PostgreSQL listener's: left as it is)."""
    Worker.__init__ = woken_only  # type: ignore[method-assign]


if __name__ == "__main__":
    from service.tools import cli

    quieten()
    sys.exit(cli.main(sys.argv[1:]))
