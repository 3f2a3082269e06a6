"""What each perspective sees of a Cancellation Hearts table: passes and the kitty are private."""

from __future__ import annotations

import msgspec

from domain.perspective import hidden, own
from domain.turns import Play
from domain.variants.cancellation_hearts.messages import CancellationHeartsOptions, PassDirection
from domain.variants.cancellation_hearts.passing import pass_direction
from domain.variants.cancellation_hearts.table import (
    CancellationHeartsTable,
    Phase,
    SentPass,
    TrickSummary,
)


class CancellationHeartsView(msgspec.Struct, frozen=True, kw_only=True):
    """The table as one perspective sees it; ``my_pass``, ``sent``, ``received`` and ``kitty``
    are only ever the viewer's own. ``hand_tricks``: every trick resolved this hand, as every
    seat saw it played."""

    options: CancellationHeartsOptions
    hand_number: int
    dealer: int
    phase: Phase
    pass_direction: PassDirection | None
    passed: tuple[bool, ...]
    my_pass: tuple[str, ...] | None
    sent: SentPass | None
    received: tuple[str, ...] | None
    leader: int | None
    trick: tuple[Play, ...]
    last_trick: TrickSummary | None
    hand_tricks: tuple[TrickSummary, ...]
    tricks_played: int
    carry: tuple[str, ...]
    kitty_size: int
    kitty_taker: int | None
    kitty: tuple[str, ...] | None
    hearts_broken: bool
    trick_points: tuple[int, ...]
    moon_seat: int | None


def table_view(table: CancellationHeartsTable) -> CancellationHeartsView:
    passing = table.phase == "passing"
    kitty_taker = table.kitty_taker
    return CancellationHeartsView(
        options=table.options,
        hand_number=table.hand_number,
        dealer=table.dealer,
        phase=table.phase,
        pass_direction=pass_direction(table.hand_number) if passing else None,
        passed=tuple(p is not None for p in table.passes) if passing else (),
        my_pass=own(table.passes) if passing else None,
        sent=own(table.sent) if table.sent else None,
        received=own(table.received) if table.received else None,
        leader=table.current_leader() if table.phase == "playing" else None,
        trick=table.plays,
        last_trick=table.last_trick,
        hand_tricks=table.hand_tricks,
        tricks_played=table.tricks,
        carry=table.carry,
        kitty_size=len(table.kitty),
        kitty_taker=kitty_taker,
        kitty=None if kitty_taker is None else hidden(kitty_taker, table.kitty_taken),
        hearts_broken=table.broken,
        trick_points=table.trick_points or (0,) * table.seat_count,
        moon_seat=table.moon_seat,
    )
