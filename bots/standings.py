"""How each seat stands in a game not yet over: what a cut rollout is scored by (algorithm 5).

The games whose rollouts are cut short (``bots.search``) move their points rarely: Cancellation
Hearts adds a hand's penalties only when its last trick is taken, One Up One Down gives a point
to the winner alone, Double Heartbeat pays the finishing order only at the hand's end. Scored by
the points as they stand, a rollout cut mid-hand tells candidates apart only near those moments
(and in Double Heartbeat by bomb bonuses alone). Here the hand in play is scored as if it ended
now: penalties taken so far, and a finishing order by the cards each seat still holds. Each
standing reads the table of a world the seat sampled, so it sees nothing the seat cannot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.variants.cancellation_hearts.table import CancellationHeartsTable
from domain.variants.cancellation_hearts.tricks import points
from domain.variants.double_heartbeat.rules import (
    ALLIED_FINISH,
    FIRST_PLACE,
    LAST_PLACE,
    SECOND_PLACE,
)
from domain.variants.double_heartbeat.table import DoubleHeartbeatTable
from domain.variants.one_up_one_down.table import OneUpOneDownTable

Standing = Callable[[Any], Sequence[float]]
"""A table -> each seat's standing, the higher the better."""


def penalties_so_far(table: CancellationHeartsTable) -> tuple[float, ...]:
    """Cancellation Hearts: the totals with the penalties taken in this hand added (the kitty's
    to its taker), negated, as the lowest total wins. A moon is not foreseen: it is rare, and a
    seat on its way to one stands badly until the last trick, as the rule's own counting says."""
    taken = list(table.trick_points or (0,) * table.seat_count)
    if table.kitty_taker is not None:
        taken[table.kitty_taker] += points(table.kitty_taken)
    return tuple(-float(total + got) for total, got in zip(table.totals, taken, strict=True))


def fewest_cards(table: OneUpOneDownTable) -> tuple[float, ...]:
    """One Up One Down: the fewer cards held, the nearer the win (the stock and the pile go to
    whoever draws or loses a challenge, so a hand's size is what every move changes)."""
    return tuple(-float(len(hand)) for hand in table.hands)


def finishing_by_cards(table: DoubleHeartbeatTable) -> tuple[float, ...]:
    """Double Heartbeat: the totals (bomb bonuses already in them) with the hand's place points
    paid as if it ended now, the seats still holding cards placed after those out, fewer cards
    first (ties in turn order from seat 0: a world's standing must not draw)."""
    standing = [float(total) for total in table.totals]
    if table.phase not in ("bury", "play"):
        return tuple(standing)
    holding = sorted(table.active_seats(), key=lambda seat: len(table.hands[seat]))
    order = [*table.out, *holding]
    if order:
        standing[order[0]] += FIRST_PLACE
    if len(order) > 1:
        standing[order[1]] += SECOND_PLACE
        if table.allies[order[0]] == order[1]:
            standing[order[0]] += ALLIED_FINISH
            standing[order[1]] += ALLIED_FINISH
    if len(order) > 2:
        standing[order[-1]] += LAST_PLACE
    return tuple(standing)


STANDINGS: Mapping[str, Standing] = {
    "cancellation-hearts": penalties_so_far,
    "one-up-one-down": fewest_cards,
    "double-heartbeat": finishing_by_cards,
}
"""Algorithm 5's standings, for the variants whose rollouts are cut (the others play to the end)."""
