"""The registry of variants: every game the service hosts, by id.

Hosting a variant is one entry in ``HOSTED`` (its package: docs/adding-a-variant.md). Everything
else that depends on the set of variants is derived from ``VARIANTS``: the aggregate classes
(``domain.aggregate.game_class``), the stored event types, the API's schemas, the conformance
suite; tests fail, naming the variant, where a table of per-variant test sizes misses one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from functools import lru_cache
from typing import Any

from domain.commands import COMMON_COMMANDS
from domain.errors import Failure, invalid
from domain.events import LIFECYCLE_EVENTS, Event, tag_of_type, topic
from domain.variant import Variant
from domain.variants.cancellation_hearts import CancellationHearts
from domain.variants.double_heartbeat import DoubleHeartbeat
from domain.variants.heartbeat import Heartbeat
from domain.variants.one_up_one_down import OneUpOneDown
from domain.variants.open_hand import OpenHand

HOSTED: tuple[Variant[Any, Any], ...] = (
    OpenHand(),
    Heartbeat(),
    CancellationHearts(),
    OneUpOneDown(),
    DoubleHeartbeat(),
)
"""In the order the service lists them."""

VARIANTS: dict[str, Variant[Any, Any]] = {}
DEADLINE_EVENTS: set[type[Event]] = set()
"""Every event type that starts a deadline, of every variant in ``VARIANTS``."""

REFUSALS: Mapping[str, Failure] = {"unknown_variant": Failure.INVALID}  # variant_by_id


def _host(variants: Iterable[Variant[Any, Any]]) -> None:
    for variant in variants:
        if variant.id in VARIANTS:
            raise ValueError(f"a variant {variant.id!r} is hosted already")
        VARIANTS[variant.id] = variant
        DEADLINE_EVENTS.update(variant.deadline_events)


_host(HOSTED)


@contextmanager
def registered(variant: Variant[Any, Any]) -> Iterator[Variant[Any, Any]]:
    """``variant`` hosted for the duration of the block (a test's own variant), after those of
    ``HOSTED``; the registry is as it was afterwards, whatever happens in the block."""
    _host((variant,))
    try:
        yield variant
    finally:
        del VARIANTS[variant.id]
        DEADLINE_EVENTS.clear()
        DEADLINE_EVENTS.update(kind for v in VARIANTS.values() for kind in v.deadline_events)


def variant_by_id(variant_id: str) -> Variant[Any, Any]:
    try:
        return VARIANTS[variant_id]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise invalid("unknown_variant", f"no variant {variant_id!r} (known: {known})") from None


def deadline_started(event: Event) -> datetime | None:
    """The deadline an event starts, if it is one that starts one (RULES.md: a deadline is
    recorded in the event that starts it), so a watcher learns deadlines from the log alone."""
    if type(event) not in DEADLINE_EVENTS:
        return None
    deadline: datetime | None = getattr(event, "deadline")  # noqa: B009 - checked by the tests
    return deadline


def event_types() -> Mapping[str, type[Event]]:
    """Every stored game event type by its topic: the lifecycle's and every hosted variant's."""
    return _event_types(tuple(VARIANTS))


def command_tags() -> frozenset[str]:
    """The ``type`` of every command some hosted variant takes."""
    return _command_tags(tuple(VARIANTS))


def deadline_topics() -> frozenset[str]:
    """The topics of the events that start a deadline, in every hosted variant."""
    return _deadline_topics(tuple(VARIANTS))


# Derived once per set of hosted variants (a test may host one more for a while).
@lru_cache(maxsize=8)
def _event_types(hosted: tuple[str, ...]) -> Mapping[str, type[Event]]:
    types: dict[str, type[Event]] = {}
    every = (*LIFECYCLE_EVENTS, *(kind for v in hosted for kind in VARIANTS[v].events))
    for kind in every:
        claimed = types.setdefault(topic(kind), kind)
        if claimed is not kind:
            raise TypeError(f"{kind.__qualname__} and {claimed.__qualname__} share {topic(kind)}")
    return types


@lru_cache(maxsize=8)
def _command_tags(hosted: tuple[str, ...]) -> frozenset[str]:
    kinds = (*COMMON_COMMANDS, *(kind for v in hosted for kind in VARIANTS[v].commands))
    return frozenset(tag_of_type(kind) for kind in kinds)


@lru_cache(maxsize=8)
def _deadline_topics(hosted: tuple[str, ...]) -> frozenset[str]:
    return frozenset(topic(kind) for v in hosted for kind in VARIANTS[v].deadline_events)
