"""ASGI entry point for the server processes (uvicorn imports it in each worker): the app
configured from the environment, the cyclic garbage collector set for a server's heap, and
each worker of a supervisor ending with it."""

import gc
import multiprocessing
import signal

from service.http.app import create_app
from service.lifetime import end_with_parent

# A server keeps thousands of games in memory. With the default first threshold (700 new
# objects) full collections, which walk all of them, come often enough to stall every request
# in flight: at 64 games on one worker the p99 was 165 ms with them and 67 ms with this
# (docs/benchmarks.md). Nothing in the service waits on cycles being collected promptly.
GC_THRESHOLDS = (10_000, 10, 10)

gc.set_threshold(*GC_THRESHOLDS)
if (supervisor := multiprocessing.parent_process()) is not None and supervisor.pid is not None:
    # A worker of `serve --workers N`: SIGTERM (a clean shutdown) once its supervisor is gone.
    end_with_parent(signal.SIGTERM, supervisor.pid)
app = create_app()
