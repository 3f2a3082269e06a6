"""Cancellation Hearts (RULES.md §4)."""

from domain.variants.cancellation_hearts.rules import CancellationHearts

__all__ = ["CancellationHearts"]
