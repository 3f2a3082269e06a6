"""A wait for bots names a level; a release that dropped it must not leave the entry (or the
queue behind it) unseatable: the nearest level the variant has takes its place."""

from __future__ import annotations

from bots.levels import available_levels
from service.application.matchmaking import nearest_level


def test_a_level_the_variant_has_is_kept() -> None:
    for level in available_levels("heartbeat"):
        assert nearest_level("heartbeat", level) == level


def test_a_level_gone_is_replaced_by_the_nearest() -> None:
    levels = available_levels("heartbeat")
    assert nearest_level("heartbeat", levels[-1] + 5) == levels[-1]
    assert nearest_level("heartbeat", -3) == levels[0]
