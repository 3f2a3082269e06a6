"""The threads an event loop hands its blocking calls to (store reads and writes, sign-in).

Every command and view crosses to a thread and back. Through the standard ThreadPoolExecutor a
crossing costs ~125k instructions (callgrind, uvloop): a concurrent future with its condition,
a work item, the pool's idle-thread semaphore, then ``asyncio.wrap_future`` chaining a second
future to the first with a callback each way. Here the loop's own future is handed to the thread,
which settles it with one ``call_soon_threadsafe``: ~35k. The event loop asks for it as its
default executor (``run_in_executor`` takes a future of the loop's as it is), and asyncio accepts
only a ThreadPoolExecutor there, hence the subclass; nothing of the parent's machinery is used.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import queue
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[..., Any], tuple[Any, ...]]


class LoopThreads(ThreadPoolExecutor):
    """Up to ``most`` threads, started as calls find none idle. ``submit`` is for the event
    loop's ``run_in_executor`` only: called on a running loop, it answers with that loop's
    future."""

    def __init__(self, most: int, name: str) -> None:
        super().__init__(max_workers=most, thread_name_prefix=name)
        self._most = most
        self._name = name
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._idle = threading.Semaphore(0)
        self._started: list[threading.Thread] = []
        self._guard = threading.Lock()
        self._closed = False

    def serve(self, loop: asyncio.AbstractEventLoop) -> None:
        """Become ``loop``'s default executor, and the threads ``on_thread`` hands its calls to
        (call on the loop's own thread)."""
        loop.set_default_executor(self)
        _serving.loop_and_threads = (loop, self)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            raise TypeError("run_in_executor passes no keyword arguments")
        return self.hand_over(asyncio.get_running_loop(), fn, args)

    def hand_over(
        self, loop: asyncio.AbstractEventLoop, fn: Callable[..., Any], args: tuple[Any, ...]
    ) -> asyncio.Future[Any]:
        """``fn(*args)`` on one of the threads; its outcome settles the future answered."""
        future = loop.create_future()
        with self._guard:
            if self._closed:
                raise RuntimeError("cannot run a call after shutdown")
            self._jobs.put((loop, future, fn, args))
            if not self._idle.acquire(blocking=False) and len(self._started) < self._most:
                thread = threading.Thread(
                    target=self._serve, name=f"{self._name}_{len(self._started)}", daemon=True
                )
                self._started.append(thread)
                thread.start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """No more calls; each thread ends after the calls queued before this."""
        with self._guard:
            if self._closed:
                return
            self._closed = True
            started = list(self._started)
        for _ in started:
            self._jobs.put(None)
        if wait:
            for thread in started:
                thread.join()

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            loop, future, fn, args = job
            if not future.cancelled():  # a call its caller gave up on before it started
                try:
                    result = fn(*args)
                except BaseException as error:  # the caller's to handle, as the pool's would be
                    _settle(loop, future, _failed, error)
                else:
                    _settle(loop, future, _succeeded, result)
            self._idle.release()


_serving = threading.local()  # on a loop's thread: (the loop, the threads serving it)


async def on_thread(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` on the running loop's threads, in a copy of the caller's context (its store
    budget). Straight to the threads: ``run_in_executor`` first asks whether ``fn`` is a
    coroutine function, which for litestar's partial of ``Context.run`` took ``inspect`` ~5% of
    the event loop's instructions (callgrind), and litestar's ``sync_to_thread`` asks sniffio
    which event loop runs on every call."""
    loop = asyncio.get_running_loop()
    context = contextvars.copy_context()
    serving = getattr(_serving, "loop_and_threads", None)
    if serving is None or serving[0] is not loop:  # a loop these threads do not serve
        return await loop.run_in_executor(None, context.run, fn, *args)
    result: T = await serving[1].hand_over(loop, context.run, (fn, *args))
    return result


def _settle(
    loop: asyncio.AbstractEventLoop,
    future: asyncio.Future[Any],
    settle: Callable[[asyncio.Future[Any], Any], None],
    outcome: Any,
) -> None:
    with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits for the answer
        loop.call_soon_threadsafe(settle, future, outcome)


def _succeeded(future: asyncio.Future[Any], result: Any) -> None:
    if not future.cancelled():
        future.set_result(result)


def _failed(future: asyncio.Future[Any], error: BaseException) -> None:
    if not future.cancelled():
        future.set_exception(error)
