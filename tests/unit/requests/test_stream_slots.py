"""Live stream slots, close to the code, counted in this process and in Redis alike: a slot given
back twice (its stream's end, then its collection) is given back once, so a client never holds
more streams than its limit; in Redis a dead process's slots come back when their leases end."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from litestar import Request

from service.errors import ApiError
from service.http import allowance
from service.http.allowance import Allowance
from service.http.limits import StreamSlots
from service.settings import NO_LIMITS, Limits
from tests.support.redis import running_redis


@pytest.fixture(params=["local", "shared"])
def counted_in(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str | None]:
    """Where slots are counted: None (this process) or a Redis URL."""
    if request.param == "local":
        yield None
    else:
        with running_redis(tmp_path) as url:
            yield url


def request_from(host: str) -> Request[Any, Any, Any]:
    return cast(Request[Any, Any, Any], SimpleNamespace(client=SimpleNamespace(host=host)))


def never_falls_back(count: str) -> None:
    raise AssertionError(f"the {count} count fell back to this process")


def slots_in(url: str | None, limits: Limits) -> StreamSlots:
    return StreamSlots(limits, Allowance(url, never_falls_back))


def in_one_loop(steps: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Shared slots renew and are given back on the loop that took them: one loop a scenario."""
    asyncio.run(steps())


@pytest.mark.parametrize(
    ("limits", "holder"),
    [
        (Limits(streams_per_address=2, streams_per_token=0), None),
        (Limits(streams_per_address=0, streams_per_token=2), "player-1"),
    ],
)
def test_a_slot_given_back_twice_is_given_back_once(
    counted_in: str | None, limits: Limits, holder: str | None
) -> None:
    slots = slots_in(counted_in, limits)
    client = request_from("192.0.2.1")

    async def steps() -> None:
        first = await slots.take(client, holder)
        await slots.take(client, holder)
        first()
        first()  # the stream ended, then was collected
        await asyncio.sleep(0.05)  # a shared slot is given back on the loop
        await slots.take(client, holder)
        with pytest.raises(ApiError) as refused:
            await slots.take(client, holder)
        assert (refused.value.status, refused.value.code) == (429, "too_many_streams")

    in_one_loop(steps)


def test_slots_are_counted_per_client(counted_in: str | None) -> None:
    slots = slots_in(counted_in, Limits(streams_per_address=1, streams_per_token=1))

    async def steps() -> None:
        mine = await slots.take(request_from("192.0.2.1"), "player-1")
        await slots.take(request_from("192.0.2.2"), "player-2")
        with pytest.raises(ApiError):
            await slots.take(request_from("192.0.2.1"), "player-3")  # the address is full
        with pytest.raises(ApiError):
            await slots.take(request_from("192.0.2.3"), "player-1")  # the holder is full
        mine()
        await asyncio.sleep(0.05)
        await slots.take(request_from("192.0.2.1"), "player-1")

    in_one_loop(steps)


def test_no_limit_no_count(counted_in: str | None) -> None:
    slots = slots_in(counted_in, NO_LIMITS)

    async def steps() -> None:
        for _ in range(100):
            await slots.take(request_from("192.0.2.1"), "player-1")

    in_one_loop(steps)


def test_a_dead_process_slots_come_back_when_their_leases_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(allowance, "LEASE_SECONDS", 2)
    limits = Limits(streams_per_address=0, streams_per_token=1)
    with running_redis(tmp_path) as url:

        async def steps() -> None:
            dead, other = slots_in(url, limits), slots_in(url, limits)
            await dead.take(request_from("192.0.2.1"), "player-1")  # never given back
            with pytest.raises(ApiError):
                await other.take(request_from("192.0.2.2"), "player-1")

        asyncio.run(steps())  # the loop ends: nothing renews the lease any more

        async def later() -> None:
            alive = slots_in(url, limits)  # a process of its own, on a loop of its own
            for _ in range(100):
                try:
                    await alive.take(request_from("192.0.2.2"), "player-1")
                    return
                except ApiError:
                    await asyncio.sleep(0.1)
            raise AssertionError("the lease never ran out")

        asyncio.run(later())


def test_a_held_slot_is_renewed_past_its_lease(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(allowance, "LEASE_SECONDS", 2)
    limits = Limits(streams_per_address=0, streams_per_token=1)
    with running_redis(tmp_path) as url:
        holder, other = slots_in(url, limits), slots_in(url, limits)

        async def steps() -> None:
            await holder.take(request_from("192.0.2.1"), "player-1")
            await asyncio.sleep(5)  # two and a half leases, renewed every two thirds of a second
            with pytest.raises(ApiError):
                await other.take(request_from("192.0.2.2"), "player-1")

        asyncio.run(steps())
