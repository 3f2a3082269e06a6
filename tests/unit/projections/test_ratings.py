"""Ratings by finishing rank (projections/ratings.py): who is rated in which place, and what one
game does to the ratings, checked against openskill called directly."""

from __future__ import annotations

import math

import msgspec
from openskill.models import PlackettLuce

from domain.events import BotSeat
from domain.game_state import GameState, SeatInfo
from domain.variant import Outcome
from projections.ratings import (
    NEW,
    TAU,
    Participant,
    Rating,
    bot_of,
    participants,
    rate,
    rate_game,
    ratings_after,
)


def finished(
    variant: str,
    scores: tuple[int, ...],
    winners: tuple[int, ...],
    *,
    left: tuple[int, ...] = (),
    bots: dict[int, int] | None = None,
    status: str = "finished",
) -> GameState:
    """A game over with these scores and winners; ``bots`` maps a seat to its bot's level."""
    bots = bots or {}
    seats = tuple(
        SeatInfo(
            player_id=f"bot:{seat}" if seat in bots else f"p{seat}",
            name=f"P{seat}",
            left=seat in left,
            bot=BotSeat(level=bots[seat], algorithm=1) if seat in bots else None,
        )
        for seat in range(len(scores))
    )
    return GameState(
        game_id="g",
        variant=variant,
        options={},
        seat_count=len(scores),
        creator="p0",
        seed_commitment="",
        seed=None,
        seats=seats,
        status=status,
        outcome=Outcome(scores=scores, winners=winners) if status == "finished" else None,
    )


def places(state: GameState) -> dict[str, int]:
    return {seat.rated_id: seat.rank for seat in participants(state)}


def test_winners_first_then_by_score_and_ties_share_a_rank() -> None:
    state = finished("open-hand", (1, 3, 1, 0), (1,))
    assert places(state) == {"p1": 1, "p0": 2, "p2": 2, "p3": 4}


def test_where_the_lowest_score_wins_the_lowest_places_first() -> None:
    state = finished("cancellation-hearts", (10, 3, 7, 20, 3, 5), (1, 4))
    assert places(state) == {"p1": 1, "p4": 1, "p5": 3, "p2": 4, "p0": 5, "p3": 6}


def test_a_seat_that_left_counts_last_whatever_its_score() -> None:
    state = finished("open-hand", (4, 1, 0, 0), (1,), left=(0,))
    assert places(state) == {"p1": 1, "p2": 2, "p3": 2, "p0": 4}
    both = finished("open-hand", (4, 1, 0, 2), (1,), left=(0, 3))
    assert places(both) == {"p1": 1, "p2": 2, "p0": 3, "p3": 3}


def test_a_cancelled_game_is_void() -> None:
    assert participants(finished("open-hand", (2, 1, 1, 1), (0,), status="cancelled")) == []


def test_bots_are_rated_per_level_whatever_seat_they_hold() -> None:
    state = finished("open-hand", (2, 1, 1, 1), (0,), bots={1: 3, 2: 3, 3: 5})
    seats = participants(state)
    assert [seat.rated_id for seat in seats] == [
        "p0",
        "bot:level-3:v1",
        "bot:level-3:v1",
        "bot:level-5:v1",
    ]
    assert [seat.bot for seat in seats] == [False, True, True, True]
    assert seats[1].name == "Bot level 3"
    assert bot_of("bot:level-3:v1") == BotSeat(level=3, algorithm=1)
    assert bot_of("bot:3") is None and bot_of("p0") is None


def test_one_game_equals_openskill_called_directly() -> None:
    before = [Rating(30.0, 5.0), NEW, Rating(20.0, 2.0)]
    after = rate(before, [2, 1, 3], [False, False, False])
    model = PlackettLuce(tau=TAU)  # the library's own τ: players' uncertainty grows first
    expected = model.rate(
        [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before], ranks=[2.0, 1.0, 3.0]
    )
    assert after == [Rating(team[0].mu, team[0].sigma) for team in expected]
    assert after[1].mu > NEW.mu > after[2].mu + 4, "the winner rises, the last falls"


def test_a_bots_uncertainty_does_not_grow_before_a_game() -> None:
    before = [Rating(25.0, 1.0), Rating(25.0, 1.0)]
    as_players = rate(before, [1, 1], [False, False])
    as_bots = rate(before, [1, 1], [True, True])
    assert as_bots[0].sigma < 1.0 < as_players[0].sigma, "a draw narrows a bot, widens a player"
    assert as_bots[0].mu == as_players[0].mu == 25.0


def test_a_bot_level_at_several_seats_moves_by_the_mean_of_its_seats() -> None:
    seats = [
        Participant(rated_id="p0", name="P0", seat=0, rank=1, bot=False),
        Participant(rated_id="bot:level-2:v1", name="Bot level 2", seat=1, rank=2, bot=True),
        Participant(rated_id="bot:level-2:v1", name="Bot level 2", seat=2, rank=3, bot=True),
    ]
    rated = rate_game(seats, {"bot:level-2:v1": Rating(22.0, 3.0)})
    assert [seat.before for seat in rated] == [NEW, Rating(22.0, 3.0), Rating(22.0, 3.0)]
    level = ratings_after(rated)["bot:level-2:v1"]
    assert math.isclose(level.mu, (rated[1].after.mu + rated[2].after.mu) / 2)
    assert rated[2].after.mu < level.mu < rated[1].after.mu
    assert ratings_after(rated)["p0"] == rated[0].after


def test_ratings_encode_and_decode_to_the_same_doubles() -> None:
    after = rate([NEW, NEW, NEW], [1, 2, 3], [False, True, False])
    assert msgspec.json.decode(msgspec.json.encode(after), type=list[Rating]) == after
