"""Which tables to form from a variant's waiting entries: a pure function of the entries and
the time, so every process that looks at the same queue at the same moment decides the same.

A table needs players who all accept its seat count and play with the same options. The
longest-waiting entry is served first: it anchors a table, and the others are taken closest to
its rating first (then by how long they have waited), each only if every player's rating band
accepts every other. With players enough for several seat counts the largest table is formed.
Once an entry's own wait for bots has passed, its table may be completed by bots of its level,
seating beside it only players whose own wait for bots has passed too (nobody is given bots
they did not ask for); that table seats as many players as it can, then as few bots as it can.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import NamedTuple

import msgspec

from domain.matchmaking.entries import Entry


class Table(NamedTuple):
    """Players (in seat order: the anchor first, then as chosen) and bots after them."""

    players: tuple[Entry, ...]
    seat_count: int
    bots: int = 0
    bot_level: int | None = None


def form_tables(entries: Sequence[Entry], now: datetime) -> list[Table]:
    """Every table that can be formed at ``now``, longest-waiting anchors first; no entry is in
    two tables."""
    waiting = sorted(entries, key=lambda entry: entry.place)
    tables: list[Table] = []
    while True:
        table = _first_table(waiting, now)
        if table is None:
            return tables
        tables.append(table)
        seated = {entry.player_id for entry in table.players}
        waiting = [entry for entry in waiting if entry.player_id not in seated]


def next_bots_due(entries: Sequence[Entry]) -> datetime | None:
    """The soonest moment an entry's wait for bots ends (None: nobody waits for bots)."""
    return min((due for entry in entries if (due := entry.bots_due) is not None), default=None)


def _first_table(waiting: list[Entry], now: datetime) -> Table | None:
    for anchor in waiting:
        table = _players_table(anchor, waiting) or _bots_table(anchor, waiting, now)
        if table is not None:
            return table
    return None


def _players_table(anchor: Entry, waiting: list[Entry]) -> Table | None:
    """The largest table of players only that ``anchor`` can sit at now."""
    for seat_count in range(anchor.joined.max_seats, anchor.joined.min_seats - 1, -1):
        chosen = _choose(anchor, waiting, seat_count, seat_count - 1, lambda _: True)
        if len(chosen) == seat_count - 1:
            return Table(players=(anchor, *chosen), seat_count=seat_count)
    return None


def _bots_table(anchor: Entry, waiting: list[Entry], now: datetime) -> Table | None:
    """A table completed by bots, once ``anchor``'s wait for them has passed: the most
    players (whose own wait has passed), then the fewest seats."""
    due = anchor.bots_due
    if due is None or due > now:
        return None

    def wants_bots(entry: Entry) -> bool:
        entry_due = entry.bots_due
        return entry_due is not None and entry_due <= now

    best: Table | None = None
    for seat_count in range(anchor.joined.min_seats, anchor.joined.max_seats + 1):
        chosen = _choose(anchor, waiting, seat_count, seat_count - 1, wants_bots)
        players = (anchor, *chosen)
        if best is None or len(players) > len(best.players):
            best = Table(
                players=players,
                seat_count=seat_count,
                bots=seat_count - len(players),
                bot_level=anchor.joined.bot_level,
            )
    return best


def _choose(
    anchor: Entry,
    waiting: list[Entry],
    seat_count: int,
    most: int,
    eligible: Callable[[Entry], bool],
) -> list[Entry]:
    """Up to ``most`` entries to sit with ``anchor`` at a table of ``seat_count``: closest to
    its rating first, then the longest waiting, each accepted by every one chosen before."""
    options = _options_key(anchor)
    candidates = [
        entry
        for entry in waiting
        if entry is not anchor
        and entry.joined.min_seats <= seat_count <= entry.joined.max_seats
        and _options_key(entry) == options
        and eligible(entry)
    ]
    candidates.sort(
        key=lambda entry: (abs(entry.joined.rating - anchor.joined.rating), entry.place)
    )
    chosen: list[Entry] = []
    for entry in candidates:
        if len(chosen) == most:
            break
        if all(_accept(entry, other) for other in (anchor, *chosen)):
            chosen.append(entry)
    return chosen


def _accept(one: Entry, other: Entry) -> bool:
    """Whether two players' rating bands both allow their rating gap."""
    gap = abs(one.joined.rating - other.joined.rating)
    return all(
        band is None or gap <= band for band in (one.joined.rating_band, other.joined.rating_band)
    )


def _options_key(entry: Entry) -> bytes:
    return msgspec.json.encode(entry.joined.options, order="sorted")
