"""Cancellation Hearts (RULES.md §4)."""

from domain.variants.cancellation_hearts.model import (
    CancellationHeartsOptions,
    CancellationHeartsTable,
    CardsPassed,
    ChooseMoon,
    MoonShot,
    PassCards,
    PassesDelivered,
    PenaltiesScored,
    TrickResolved,
)
from domain.variants.cancellation_hearts.variant import CancellationHearts

__all__ = [
    "CancellationHearts",
    "CancellationHeartsOptions",
    "CancellationHeartsTable",
    "CardsPassed",
    "ChooseMoon",
    "MoonShot",
    "PassCards",
    "PassesDelivered",
    "PenaltiesScored",
    "TrickResolved",
]
