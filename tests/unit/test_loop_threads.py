"""The event loop's threads for blocking calls (service/threads.py): answers and errors come back
to the caller, calls run side by side up to the bound and on no more threads, a call given up
before it started never runs, and shutdown ends every thread."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from typing import Any

import pytest
import uvloop

from service.threads import LoopThreads, on_thread
from tests.support.threads import BOUND

LOOPS: dict[str, Callable[[Coroutine[Any, Any, Any]], Any]] = {
    "asyncio": asyncio.run,
    "uvloop": uvloop.run,
}


@pytest.fixture(params=sorted(LOOPS))
def run(request: pytest.FixtureRequest) -> Callable[[Coroutine[Any, Any, Any]], Any]:
    return LOOPS[request.param]


def test_answers_and_errors_come_back_to_the_caller(
    run: Callable[[Coroutine[Any, Any, Any]], Any],
) -> None:
    threads = LoopThreads(2, "test")

    def fail() -> None:
        raise KeyError("refused")

    async def calls() -> tuple[str, str]:
        loop = asyncio.get_running_loop()
        loop.set_default_executor(threads)
        name = await loop.run_in_executor(None, lambda: threading.current_thread().name)
        with pytest.raises(KeyError, match="refused"):
            await loop.run_in_executor(None, fail)
        return name, threading.current_thread().name

    worker, caller = run(calls())
    assert worker.startswith("test_") and worker != caller
    threads.shutdown()


def test_calls_run_side_by_side_on_at_most_the_bound(
    run: Callable[[Coroutine[Any, Any, Any]], Any],
) -> None:
    threads = LoopThreads(3, "test")
    together = threading.Barrier(3, timeout=BOUND)  # broken unless three run at once
    names: set[str] = set()

    def meet() -> None:
        names.add(threading.current_thread().name)
        together.wait()

    async def calls() -> None:
        loop = asyncio.get_running_loop()
        for _ in range(2):  # six calls at once: three run together, then three on the same threads
            await asyncio.gather(*(loop.run_in_executor(threads, meet) for _ in range(6)))

    run(calls())
    assert names == {"test_0", "test_1", "test_2"}
    threads.shutdown()


def test_a_call_given_up_before_it_started_never_runs() -> None:
    threads = LoopThreads(1, "test")
    holding, release = threading.Event(), threading.Event()
    ran: list[str] = []

    async def calls() -> None:
        loop = asyncio.get_running_loop()
        held = loop.run_in_executor(threads, lambda: (holding.set(), release.wait(BOUND)))
        assert await loop.run_in_executor(None, holding.wait, BOUND)
        queued = loop.run_in_executor(threads, lambda: ran.append("given up"))
        queued.cancel()
        release.set()
        await held
        await loop.run_in_executor(threads, lambda: ran.append("after"))  # the thread goes on

    asyncio.run(calls())
    assert ran == ["after"]
    threads.shutdown()


def test_shutdown_ends_every_thread_after_the_calls_queued() -> None:
    threads = LoopThreads(2, "test")
    done: list[int] = []

    async def calls() -> None:
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(threads, done.append, n) for n in range(6)))

    asyncio.run(calls())
    started = [t for t in threading.enumerate() if t.name.startswith("test_")]
    assert started
    threads.shutdown(wait=True)
    assert sorted(done) == list(range(6))
    assert not any(thread.is_alive() for thread in started)

    async def late() -> None:
        with pytest.raises(RuntimeError, match="shutdown"):
            await asyncio.get_running_loop().run_in_executor(threads, done.append, 7)

    asyncio.run(late())


def test_on_thread_runs_on_the_threads_serving_the_loop_in_the_caller_s_context(
    run: Callable[[Coroutine[Any, Any, Any]], Any],
) -> None:
    threads = LoopThreads(2, "served")
    seen: ContextVar[str] = ContextVar("seen", default="unset")

    def where_and_what(suffix: str) -> tuple[str, str]:
        return threading.current_thread().name, seen.get() + suffix

    async def calls() -> tuple[str, str]:
        threads.serve(asyncio.get_running_loop())
        seen.set("the caller's")
        with pytest.raises(KeyError, match="refused"):
            await on_thread(_refuse)
        return await on_thread(where_and_what, " value")

    name, value = run(calls())
    assert name.startswith("served_")
    assert value == "the caller's value"
    threads.shutdown()


def test_on_thread_on_a_loop_not_served_uses_its_default_executor(
    run: Callable[[Coroutine[Any, Any, Any]], Any],
) -> None:
    served = LoopThreads(1, "served")

    async def serve() -> None:
        served.serve(asyncio.get_running_loop())

    async def elsewhere() -> str:  # another loop on the same thread, after the first ended
        return await on_thread(lambda: threading.current_thread().name)

    run(serve())
    name = run(elsewhere())
    assert not name.startswith("served_") and name != threading.current_thread().name
    served.shutdown()


def _refuse() -> None:
    raise KeyError("refused")
