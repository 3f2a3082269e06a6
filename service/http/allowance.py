"""How much of its allowance a client has used: requests in the current minute and live streams
open at once. Kept per process, or with CARDLEDGER_LIMITS_URL in Redis, one count shared by every
worker and node.

Rates are fixed windows: in Redis the `limits` library's atomic count per key; in the process a
plain dict (the library's in-memory storage took two awaited calls and a lock per count, ~8 us a
rule per request). The library counts no things held open, so stream slots are written here: in
Redis a sorted set per client whose members are leases, checked and taken by one script (atomic
across processes), renewed while the stream lives and expiring when the process that holds them
dies.

While Redis does not answer, a process falls back to its own counts (the per-process allowance
of a deployment without Redis) and asks Redis again a few seconds later: refusing every client
because a shared cache is down would turn its outage into the service's. Each fallback is
counted (`cardledger_limits_fallbacks_total`).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import NamedTuple, Protocol

import redis.asyncio as redis
from limits import RateLimitItem
from limits.aio.storage import RedisStorage
from limits.aio.strategies import FixedWindowRateLimiter
from limits.errors import StorageError
from redis.exceptions import RedisError

RETRY_SECONDS = 5.0  # after Redis failed, this process counts alone this long before asking again
TIMEOUT_SECONDS = 0.25  # what one Redis call may take before this process counts alone
LEASE_SECONDS = 30  # a shared stream slot outlives its process by at most this
KEY_PREFIX = "cardledger:limits"

Fallback = Callable[[str], None]  # told which count ("rates" or "streams") fell back


class Verdict(NamedTuple):
    allowed: bool
    limit: int
    remaining: int
    reset_seconds: int  # until the window starts again


class Reach:
    """Whether to ask Redis now: not for RETRY_SECONDS after it last failed."""

    def __init__(self, fallback: Fallback) -> None:
        self._fallback = fallback
        self._down_until = 0.0

    def up(self) -> bool:
        return time.monotonic() >= self._down_until

    def failed(self, count: str) -> None:
        self._down_until = time.monotonic() + RETRY_SECONDS
        self._fallback(count)


class Rates:
    """Requests counted in fixed windows: in Redis when it answers, else in this process."""

    def __init__(self, url: str | None, reach: Reach) -> None:
        self._url = url
        self._reach = reach
        self._local = LocalWindows()
        self._shared: FixedWindowRateLimiter | None = None

    async def hit(self, item: RateLimitItem, *key: str) -> Verdict:
        if self._url is not None and self._reach.up():
            try:
                return await self._count(self._shared_limiter(), item, key)
            except StorageError:
                self._reach.failed("rates")
        return self._local.hit(item, key)

    @staticmethod
    async def _count(
        limiter: FixedWindowRateLimiter, item: RateLimitItem, key: Sequence[str]
    ) -> Verdict:
        allowed = await limiter.hit(item, *key)
        stats = await limiter.get_window_stats(item, *key)
        reset = max(0, round(stats.reset_time - time.time()))
        return Verdict(allowed, item.amount, stats.remaining, reset)

    # Made on first use, on the running loop: storages bind to the loop that first uses them.
    def _shared_limiter(self) -> FixedWindowRateLimiter:
        if self._shared is None:
            assert self._url is not None
            storage = RedisStorage(
                self._url.replace("redis://", "async+redis://", 1),
                wrap_exceptions=True,
                implementation="redispy",
                key_prefix=KEY_PREFIX,
                socket_timeout=TIMEOUT_SECONDS,
                socket_connect_timeout=TIMEOUT_SECONDS,
            )
            self._shared = FixedWindowRateLimiter(storage)
        return self._shared


class LocalWindows:
    """Fixed windows counted in this process, as the library's in-memory storage counts them: a
    key's window opens at its first request and lasts the item's expiry. Called on the event
    loop only (no lock); windows that ran out are swept at most once a second."""

    def __init__(self) -> None:
        self._windows: dict[tuple[str, ...], list[float]] = {}  # key: [ends at, count]
        self._swept = 0.0

    def hit(self, item: RateLimitItem, key: Sequence[str]) -> Verdict:
        now = time.time()
        if now - self._swept >= 1.0:
            self._sweep(now)
        whose = (item.key_for(), *key)
        window = self._windows.get(whose)
        if window is None or window[0] <= now:
            window = self._windows[whose] = [now + item.get_expiry(), 0]
        window[1] += 1
        count = int(window[1])
        remaining = max(0, item.amount - count)
        return Verdict(count <= item.amount, item.amount, remaining, max(0, round(window[0] - now)))

    def _sweep(self, now: float) -> None:
        self._swept = now
        for whose in [whose for whose, window in self._windows.items() if window[0] <= now]:
            del self._windows[whose]


class Slots(Protocol):
    async def take(self, wanted: Sequence[tuple[str, int]]) -> Callable[[], None] | None:
        """A slot under every (key, most) at once, and what gives it back; None if any key
        has its most taken."""


class LocalSlots:
    """Slots counted in this process."""

    def __init__(self) -> None:
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()  # given back from any thread (a collected stream)

    async def take(self, wanted: Sequence[tuple[str, int]]) -> Callable[[], None] | None:
        with self._lock:
            if any(self._open[key] >= most for key, most in wanted):
                return None
            for key, _ in wanted:
                self._open[key] += 1

        def give_back() -> None:
            with self._lock:
                for key, _ in wanted:
                    self._open[key] -= 1
                    if self._open[key] <= 0:
                        del self._open[key]

        return give_back


# Times come from Redis (TIME), so nodes with skewed clocks agree on which leases have run out.
TAKE = """
local now = tonumber(redis.call('TIME')[1])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= tonumber(ARGV[2 + i]) then return 0 end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + tonumber(ARGV[2]), ARGV[1])
  redis.call('EXPIRE', key, 2 * tonumber(ARGV[2]))
end
return 1
"""
RENEW = """
local now = tonumber(redis.call('TIME')[1])
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now + tonumber(ARGV[2]), ARGV[1])
  redis.call('EXPIRE', key, 2 * tonumber(ARGV[2]))
end
return 1
"""


class SharedSlots:
    """Slots as leases in Redis, renewed every third of a lease while held."""

    def __init__(self, url: str, reach: Reach) -> None:
        self._url = url
        self._reach = reach
        self._client: redis.Redis | None = None
        self._held: dict[str, list[str]] = {}  # a lease's member: its keys
        self._renewing: asyncio.Task[None] | None = None

    async def take(self, wanted: Sequence[tuple[str, int]]) -> Callable[[], None] | None:
        member = secrets.token_hex(8)
        keys = [f"{KEY_PREFIX}:streams:{key}" for key, _ in wanted]
        most = [str(most) for _, most in wanted]
        taken = await self._client_now().eval(TAKE, len(keys), *keys, member, LEASE_SECONDS, *most)
        if not taken:
            return None
        self._held[member] = keys
        self._keep_renewing()
        loop = asyncio.get_running_loop()

        def give_back() -> None:
            if self._held.pop(member, None) is None:
                return
            with contextlib.suppress(RuntimeError):  # a closed loop: the lease runs out by itself
                loop.call_soon_threadsafe(lambda: loop.create_task(self._release(member, keys)))

        return give_back

    def _client_now(self) -> redis.Redis:
        if self._client is None:
            self._client = redis.Redis.from_url(
                self._url, socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=TIMEOUT_SECONDS
            )
        return self._client

    async def _release(self, member: str, keys: list[str]) -> None:
        try:
            async with self._client_now().pipeline(transaction=False) as pipe:
                for key in keys:
                    pipe.zrem(key, member)
                await pipe.execute()
        except RedisError:
            self._reach.failed("streams")  # the lease runs out by itself

    def _keep_renewing(self) -> None:
        if self._renewing is None or self._renewing.done():
            self._renewing = asyncio.get_running_loop().create_task(self._renew())

    async def _renew(self) -> None:
        while self._held:
            await asyncio.sleep(LEASE_SECONDS / 3)
            for member, keys in list(self._held.items()):
                try:
                    await self._client_now().eval(RENEW, len(keys), *keys, member, LEASE_SECONDS)
                except RedisError:
                    self._reach.failed("streams")


class Allowance:
    """Rates and stream slots, shared through Redis when ``url`` is set."""

    def __init__(self, url: str | None, fallback: Fallback) -> None:
        self._reach = Reach(fallback)
        self.rates = Rates(url, self._reach)
        self._local_slots = LocalSlots()
        self._shared_slots = SharedSlots(url, self._reach) if url else None

    async def take_slot(self, wanted: Sequence[tuple[str, int]]) -> Callable[[], None] | None:
        if self._shared_slots is not None and self._reach.up():
            try:
                return await self._shared_slots.take(wanted)
            except RedisError:
                self._reach.failed("streams")
        return await self._local_slots.take(wanted)
