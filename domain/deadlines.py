"""Deadlines: recorded in the event that starts them; the server applies expiry as an event."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

import msgspec

from domain.errors import Failure, RuleViolation
from domain.events import Event

REFUSALS: Mapping[str, Failure] = {"deadline_passed": Failure.CONFLICT}  # check_in_time


def deadline_after(now: datetime, seconds: int) -> datetime | None:
    """The deadline ``seconds`` after ``now``; 0 seconds means no deadline."""
    return now + timedelta(seconds=seconds) if seconds > 0 else None


def is_due(deadline: datetime | None, now: datetime) -> bool:
    """Whether a deadline has passed: exactly at the deadline counts as passed."""
    return deadline is not None and now >= deadline


def check_in_time(deadline: datetime | None, now: datetime) -> None:
    """Refuse an action that arrives at or after its deadline."""
    if is_due(deadline, now):
        raise RuleViolation("deadline_passed", "the time for this action has run out")


class Expiry(msgspec.Struct, frozen=True, kw_only=True):
    """One deadline applied: the deadline (the time the rules decided it at) and its events,
    each recorded with the deadline as its ``expiry`` (docs/fairness.md §5)."""

    deadline: datetime
    events: list[Event]


def events_of(expiries: Iterable[Expiry]) -> list[Event]:
    """The events of expiries applied one after the other, in order."""
    return [event for expiry in expiries for event in expiry.events]
