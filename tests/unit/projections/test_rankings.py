"""Ranks with ties: a game's scoreboard (equal totals share a rank) and the leaderboard (equal
wins *and* points share one). Both use competition ranking: 1, 1, 3."""

from __future__ import annotations

from domain.commands import PlayCard
from domain.game_state import GameState, fold
from projections.lobby import Result
from projections.scoreboard import scoreboard
from service.read_models.tables import Tables
from service.settings import Settings
from service.store.event_store import Store
from tests.rules.scenario import given, started, when

# Trick by trick (seat 0 leads, each winner leads the next): a 2 takes each of the first four
# tricks and the ace the fifth. Winners: seat 0, 2, 0, 2, 1, so the totals end (2, 1, 2, 0).
TRICKS = [
    ("2S", "3S", "4S", "5S"),
    ("3H", "4H", "2H", "5H"),
    ("2D", "3D", "4D", "5D"),
    ("3C", "4C", "2C", "5C"),
    ("6S", "AS", "6H", "6D"),
]
HANDS = [tuple(trick[seat] for trick in TRICKS) for seat in range(4)]


def after_tricks(count: int) -> GameState:
    state = given(started("open-hand", HANDS))
    while len(state.table.tricks) < count:
        seat = state.rules.to_act(state.table)[0]
        card = TRICKS[len(state.table.tricks)][seat]
        state = fold(state, when(state, seat, PlayCard(card=card)))
    return state


def ranks(state: GameState) -> dict[int, int]:
    """Seat -> rank on the scoreboard."""
    return {standing.seat: standing.rank for standing in scoreboard(state).ranking}


def test_before_any_trick_every_seat_shares_the_first_rank() -> None:
    assert ranks(after_tricks(0)) == {0: 1, 1: 1, 2: 1, 3: 1}, "equal totals ranked apart"


def test_tied_totals_share_a_rank_and_the_next_rank_skips() -> None:
    state = after_tricks(2)
    assert scoreboard(state).totals == (1, 0, 1, 0)
    assert ranks(state) == {0: 1, 2: 1, 1: 3, 3: 3}, "equal totals ranked apart"


def test_the_final_ranking_of_a_finished_game() -> None:
    state = after_tricks(5)
    board = scoreboard(state)
    assert (board.status, board.totals, board.winners) == ("finished", (2, 1, 2, 0), (0, 2))
    assert ranks(state) == {0: 1, 2: 1, 1: 3, 3: 4}, "equal totals ranked apart"
    assert [s.seat for s in board.ranking if s.winner] == [0, 2]


def leaderboard_ranks(
    rows: list[tuple[str, int, int, int]], *, lower_wins: bool = False
) -> list[tuple[str, int]]:
    """The ranks the read models' SQL gives players with these (player, wins, points, games),
    counted in as finished games are: each a game, maybe a win, and its points."""
    store = Store(env=Settings(in_memory=True).store_env())
    tables = Tables(store)
    results = [
        Result(variant="open-hand", player_id=player, name=player, won=game < wins, points=scored)
        for player, wins, points, games in rows
        for game, scored in enumerate([points] + [0] * (games - 1))  # all its points in one
    ]
    store.transact(lambda cursor: tables.count(cursor, results))
    board = tables.leaderboard("open-hand", lower_wins=lower_wins, limit=len(rows), after=None)
    store.close()
    return [(ranked.player_id, ranked.rank) for ranked in board.items]


def test_equal_wins_with_different_points_do_not_tie() -> None:
    rows = [("a", 3, 40, 5), ("b", 3, 35, 5), ("c", 1, 50, 5)]
    assert leaderboard_ranks(rows) == [("a", 1), ("b", 2), ("c", 3)], "points must break the tie"


def test_equal_wins_and_points_tie_whatever_the_games() -> None:
    rows = [("a", 3, 40, 5), ("b", 3, 35, 4), ("c", 3, 35, 9), ("d", 3, 30, 5), ("e", 0, 30, 5)]
    assert leaderboard_ranks(rows) == [("a", 1), ("b", 2), ("c", 2), ("d", 4), ("e", 5)]


def test_a_lower_score_wins_leaderboard_ties_the_same_way() -> None:
    # Points ascending within equal wins (Cancellation Hearts): the order decides, not the sign.
    rows = [("a", 2, 10, 5), ("b", 2, 12, 5), ("c", 2, 12, 5)]
    assert leaderboard_ranks(rows, lower_wins=True) == [("a", 1), ("b", 2), ("c", 2)]
