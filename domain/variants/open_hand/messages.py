"""Open Hand's options and events (its one command is the shared ``PlayCard``), RULES.md §3."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.events import Event

FirstLeader = Literal["cutter", "high_card"]


class OpenHandOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    first_leader: FirstLeader = "cutter"
    tiebreak: Literal["shared", "playoff"] = "shared"


class FirstLeaderChosen(Event, frozen=True, tag="FirstLeaderChosen"):
    """Who leads the first trick; ``draws`` holds each seat's high-card draw (empty for cutter)."""

    seat: int
    method: FirstLeader
    draws: tuple[str, ...]
