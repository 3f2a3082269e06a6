"""The webhook retry backoff: full jitter under a ceiling that doubles up to its cap, drawn from
a source the caller gives (seeded here, so every run sees the same waits)."""

from __future__ import annotations

import random

from service.application.messaging.webhooks import backoff

CEILINGS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 600, 600, 600]


def test_without_jitter_the_wait_is_the_ceiling_doubled_up_to_the_cap() -> None:
    assert [backoff(n, 1, 600, lambda: 1.0) for n in range(13)] == CEILINGS
    assert backoff(10_000, 1, 600, lambda: 1.0) == 600  # no overflow after many failures


def test_each_wait_is_a_draw_between_zero_and_its_ceiling() -> None:
    draws = random.Random(24)
    waits = [backoff(n, 1, 600, draws.random) for n in range(13)]
    again = random.Random(24)
    assert waits == [ceiling * again.random() for ceiling in CEILINGS]  # the seed decides
    assert all(0 <= wait < ceiling for wait, ceiling in zip(waits, CEILINGS, strict=True))


def test_webhooks_that_failed_together_are_spread_over_the_whole_range() -> None:
    draws = random.Random(7)
    waits = sorted(backoff(9, 1, 600, draws.random) for _ in range(1000))  # ceiling 512
    assert waits[0] < 0.01 * 512 and waits[-1] > 0.99 * 512
    assert 0.45 * 512 < waits[500] < 0.55 * 512  # uniform: the median near half
    assert len({round(wait, 6) for wait in waits}) == len(waits)  # no two at the same moment
