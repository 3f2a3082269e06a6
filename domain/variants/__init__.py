"""The registry of variants: every game the service hosts, by id."""

from __future__ import annotations

from typing import Any

from domain.errors import invalid
from domain.variant import Variant
from domain.variants.cancellation_hearts import CancellationHearts
from domain.variants.double_heartbeat import DoubleHeartbeat
from domain.variants.heartbeat import Heartbeat
from domain.variants.one_up_one_down import OneUpOneDown
from domain.variants.open_hand import OpenHand

VARIANTS: dict[str, Variant[Any, Any]] = {
    variant.id: variant
    for variant in (
        OpenHand(),
        Heartbeat(),
        CancellationHearts(),
        OneUpOneDown(),
        DoubleHeartbeat(),
    )
}


def variant_by_id(variant_id: str) -> Variant[Any, Any]:
    try:
        return VARIANTS[variant_id]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise invalid("unknown_variant", f"no variant {variant_id!r} (known: {known})") from None
