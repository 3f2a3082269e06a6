"""Open Hand (打扑克不盖被), RULES.md §3."""

from domain.variants.open_hand.rules import OpenHand

__all__ = ["OpenHand"]
