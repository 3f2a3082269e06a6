"""Which tables the queue forms, as a pure function of the entries and the time: the longest
waiting first, the largest table of players, close ratings preferred and bands respected, the
options equal, and bots only for players whose own wait for them has passed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from domain.matchmaking.entries import Entry, EntryJoined
from domain.matchmaking.matching import form_tables, next_bots_due

START = datetime(2026, 1, 1, tzinfo=UTC)


def entry(
    name: str,
    place: int,
    *,
    seats: tuple[int, int] = (2, 4),
    rating: float = 0.0,
    band: float | None = None,
    bots_after: float | None = None,
    options: dict[str, Any] | None = None,
) -> Entry:
    joined = EntryJoined(
        player_id=name,
        name=name,
        min_seats=seats[0],
        max_seats=seats[1],
        options=options or {"tiebreak": "shared"},
        rating=rating,
        rating_band=band,
        bots_after=bots_after,
        bot_level=None if bots_after is None else 2,
    )
    return Entry(joined=joined, joined_at=START + timedelta(seconds=place), place=place)


def seated(entries: list[Entry], now: datetime = START) -> list[list[str]]:
    return [[e.player_id for e in table.players] for table in form_tables(entries, now)]


def test_one_player_alone_waits() -> None:
    assert form_tables([entry("a", 1)], START) == []


def test_two_players_who_accept_two_seats_are_seated_together() -> None:
    assert seated([entry("a", 1), entry("b", 2)]) == [["a", "b"]]


def test_the_largest_table_everyone_accepts_is_formed() -> None:
    tables = form_tables([entry(n, i) for i, n in enumerate("abcde")], START)
    assert [t.seat_count for t in tables] == [4]
    assert [e.player_id for e in tables[0].players] == ["a", "b", "c", "d"]


def test_seat_ranges_must_all_contain_the_table_size() -> None:
    assert seated([entry("a", 1, seats=(3, 3)), entry("b", 2, seats=(2, 2))]) == []
    three = [entry("a", 1, seats=(3, 3)), entry("b", 2, seats=(2, 2)), entry("c", 3), entry("d", 4)]
    assert seated(three) == [["a", "c", "d"]]


def test_close_ratings_are_preferred_to_joining_early() -> None:
    entries = [
        entry("a", 1, seats=(2, 2), rating=1500),
        entry("far", 2, seats=(2, 2), rating=900),
        entry("near", 3, seats=(2, 2), rating=1490),
    ]
    assert seated(entries) == [["a", "near"]]


def test_a_rating_band_keeps_players_apart_both_ways() -> None:
    assert seated([entry("a", 1, rating=1500, band=100), entry("b", 2, rating=1700)]) == []
    assert seated([entry("a", 1, rating=1500), entry("b", 2, rating=1700, band=100)]) == []
    assert seated([entry("a", 1, rating=1500, band=300), entry("b", 2, rating=1700)]) == [
        ["a", "b"]
    ]


def test_a_band_counts_every_pair_at_the_table() -> None:
    """b and c each fit a's band, but not each other's."""
    entries = [
        entry("a", 1, seats=(3, 3), rating=1500),
        entry("b", 2, seats=(3, 3), rating=1400, band=150),
        entry("c", 3, seats=(3, 3), rating=1600, band=150),
    ]
    assert seated(entries) == []


def test_only_equal_options_share_a_table() -> None:
    entries = [entry("a", 1), entry("b", 2, options={"tiebreak": "first"})]
    assert seated(entries) == []
    entries.append(entry("c", 3, options={"tiebreak": "first"}))
    assert seated(entries) == [["b", "c"]]


def test_the_longest_waiting_are_served_first_and_nobody_is_seated_twice() -> None:
    entries = [entry(n, i, seats=(2, 2)) for i, n in enumerate("abcde")]
    assert seated(entries) == [["a", "b"], ["c", "d"]]


def test_bots_fill_only_once_the_wait_has_passed() -> None:
    alone = [entry("a", 1, seats=(3, 4), bots_after=30)]
    assert seated(alone, START + timedelta(seconds=30)) == []
    tables = form_tables(alone, START + timedelta(seconds=31))
    assert [(t.seat_count, t.bots, t.bot_level) for t in tables] == [(3, 2, 2)]


def test_bots_sit_only_beside_players_who_asked_for_them_and_waited() -> None:
    later = START + timedelta(seconds=100)
    entries = [
        entry("a", 1, seats=(4, 4), bots_after=10),
        entry("human", 2, seats=(2, 3)),  # never bots, and not four seats
        entry("patient", 3, seats=(4, 4), bots_after=500),  # not yet
        entry("ready", 4, seats=(4, 4), bots_after=50),
    ]
    tables = form_tables(entries, later)
    assert [[e.player_id for e in t.players] for t in tables] == [["a", "ready"]]
    assert tables[0].bots == 2


def test_a_table_of_players_is_formed_before_bots_are_given() -> None:
    entries = [entry("a", 1, seats=(2, 2), bots_after=0), entry("b", 2, seats=(2, 2))]
    tables = form_tables(entries, START + timedelta(seconds=60))
    assert [(len(t.players), t.bots) for t in tables] == [(2, 0)]


def test_the_next_moment_bots_are_due() -> None:
    entries = [entry("a", 5, bots_after=30), entry("b", 1), entry("c", 2, bots_after=60)]
    assert next_bots_due(entries) == START + timedelta(seconds=35)
    assert next_bots_due([entry("b", 1)]) is None
