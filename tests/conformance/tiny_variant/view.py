"""What every seat sees of a High Card table: the trick is played face up."""

from __future__ import annotations

import msgspec

from domain.turns import Play
from tests.conformance.tiny_variant.messages import HighCardOptions
from tests.conformance.tiny_variant.table import HighCardTable


class HighCardView(msgspec.Struct, frozen=True, kw_only=True):
    """The one trick and its winner."""

    trick: tuple[Play, ...]
    winner: int | None
    options: HighCardOptions


def table_view(table: HighCardTable) -> HighCardView:
    return HighCardView(trick=table.plays, winner=table.winner, options=table.options)
