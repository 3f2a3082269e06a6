"""Route handlers that block (store reads and writes) run on the store threads.

A handler is written as a plain function and marked ``@off_loop`` under its route decorator:
litestar sees a coroutine function with the handler's own signature, and the body runs on the
event loop's store threads (service/threads.py ``on_thread``). litestar's own way,
``sync_to_thread=True``, asks sniffio which event loop runs and goes through the loop's
``run_in_executor``, which asks ``inspect`` whether its partial is a coroutine function: ~7%
of the event loop's instructions on every request (callgrind).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from service.threads import on_thread

P = ParamSpec("P")
T = TypeVar("T")


def off_loop(handler: Callable[P, T]) -> Callable[P, Awaitable[T]]:
    @functools.wraps(handler)
    async def handed_over(*args: P.args, **kwargs: P.kwargs) -> T:
        return await on_thread(functools.partial(handler, *args, **kwargs))

    return handed_over
