"""Double Heartbeat (双倍心跳), RULES.md §2. See rules.py for the variant and its conventions."""

from domain.variants.double_heartbeat.rules import DoubleHeartbeat

__all__ = ["DoubleHeartbeat"]
