"""What every seat sees of an Open Hand table: everything is played face up."""

from __future__ import annotations

import msgspec

from domain.turns import Play, TrickRecord
from domain.variants.open_hand.messages import OpenHandOptions
from domain.variants.open_hand.table import OpenHandTable


class OpenHandView(msgspec.Struct, frozen=True, kw_only=True):
    """Everything on an Open Hand table that every seat sees."""

    leader: int | None
    trick: tuple[Play, ...]
    tricks: tuple[TrickRecord, ...]
    played: tuple[tuple[str, ...], ...]
    first_leader_draws: tuple[str, ...]
    options: OpenHandOptions


def table_view(table: OpenHandTable) -> OpenHandView:
    played: list[list[str]] = [[] for _ in range(table.seat_count)]
    for trick in table.tricks:
        for play in trick.plays:
            played[play.seat].append(play.card)
    for play in table.plays:
        played[play.seat].append(play.card)
    return OpenHandView(
        leader=table.current_leader() if table.dealt else None,
        trick=table.plays,
        tricks=table.tricks,
        played=tuple(tuple(cards) for cards in played),
        first_leader_draws=table.draws,
        options=table.options,
    )
