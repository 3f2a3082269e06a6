"""Heartbeat (心跳), RULES.md §1."""

from domain.variants.heartbeat.rules import Heartbeat

__all__ = ["Heartbeat"]
