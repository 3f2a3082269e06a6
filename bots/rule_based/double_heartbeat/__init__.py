"""Level 2 of Double Heartbeat: a player that plans its hand (see ``player``)."""

from bots.rule_based.double_heartbeat.player import DoubleHeartbeatRuleBased

__all__ = ["DoubleHeartbeatRuleBased"]
