"""Level 2: a rule-based player per variant, each in its own module.

Each reads only its seat's view (its hand, the table as the seat sees it, the legal moves) and
draws from its own stream only to break ties, so it is as reproducible as the random level.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bots.contract import Player
from bots.rule_based.cancellation_hearts import CancellationHeartsRuleBased
from bots.rule_based.double_heartbeat import DoubleHeartbeatRuleBased
from bots.rule_based.heartbeat import HeartbeatRuleBased
from bots.rule_based.one_up_one_down import OneUpOneDownRuleBased
from bots.rule_based.open_hand import OpenHandRuleBased

RULE_BASED: Mapping[str, Callable[[], Player]] = {
    "open-hand": OpenHandRuleBased,
    "heartbeat": HeartbeatRuleBased,
    "cancellation-hearts": CancellationHeartsRuleBased,
    "one-up-one-down": OneUpOneDownRuleBased,
    "double-heartbeat": DoubleHeartbeatRuleBased,
}
"""Variant id -> its rule-based player."""
