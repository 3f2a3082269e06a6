"""Open Hand's options and events (its one command is the shared ``PlayCard``), RULES.md §3."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.events import Event


class OpenHandOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    first_leader: Literal["cutter", "high_card"] = "cutter"
    tiebreak: Literal["shared", "playoff"] = "shared"


class FirstLeaderChosen(Event, frozen=True, tag="FirstLeaderChosen"):
    """Who leads the first trick; ``draws`` holds each seat's high-card draw (empty for cutter)."""

    seat: int
    method: str
    draws: tuple[str, ...]
