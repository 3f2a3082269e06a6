"""The registry of variants: every game the service hosts, by id."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from domain.errors import invalid
from domain.events import Event
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


DEADLINE_EVENTS: frozenset[type[Event]] = frozenset(
    kind for variant in VARIANTS.values() for kind in variant.deadline_events
)


def deadline_started(event: Event) -> datetime | None:
    """The deadline an event starts, if it is one that starts one (RULES.md: a deadline is
    recorded in the event that starts it), so a watcher learns deadlines from the log alone."""
    if type(event) not in DEADLINE_EVENTS:
        return None
    deadline: datetime | None = getattr(event, "deadline")  # noqa: B009 - checked by the tests
    return deadline
