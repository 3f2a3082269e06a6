"""ASGI entry point for the server processes (uvicorn imports it in each worker): the app
configured from the environment, and the cyclic garbage collector set for a server's heap."""

import gc

from service.http.app import create_app

# A server keeps thousands of games in memory. With the default first threshold (700 new
# objects) full collections, which walk all of them, come often enough to stall every request
# in flight: at 64 games on one worker the p99 was 165 ms with them and 67 ms with this
# (docs/benchmarks.md). Nothing in the service waits on cycles being collected promptly.
GC_THRESHOLDS = (10_000, 10, 10)

gc.set_threshold(*GC_THRESHOLDS)
app = create_app()
