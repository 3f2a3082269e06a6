"""Cancellation Hearts (RULES.md §4): penalties, the moon and the end of the match, as scenarios."""

from __future__ import annotations

from typing import Any

import pytest

from domain import game_state
from domain.cards import RANKS
from domain.commands import Leave
from domain.events import Event, GameFinished, HandDealt, PlayerLeft
from domain.game_state import GameState
from domain.variants.cancellation_hearts.messages import ChooseMoon, MoonShot, PenaltiesScored
from tests.rules.cancellation_hearts.scenarios import RULES, of_type, playing, plays, to_act
from tests.rules.scenario import SEED, play_out, refused


def moon_hands() -> tuple[list[tuple[str, ...]], tuple[str, ...]]:
    """Seat 1 leads six clubs; everybody else is void in clubs and throws points on them."""
    points = [r + "H" for r in RANKS for _ in range(2)] + ["QS", "QS"]
    points.remove("AH")  # one ace of hearts waits in the kitty
    others = [*points, "2D", "3D", "4D"]
    hands: list[tuple[str, ...]] = [()] * 6
    hands[1] = ("2C", "3C", "4C", "5C", "6C", "7C")
    for index, seat in enumerate((2, 3, 4, 5, 0)):
        hands[seat] = tuple(others[index * 6 : (index + 1) * 6])
    return hands, ("AH", "8C")


def shoot_the_moon(options: dict[str, Any]) -> tuple[GameState, list[Event]]:
    hands, kitty = moon_hands()
    state = playing(hands, kitty, options=options)
    events: list[Event] = []
    for trick in range(6):
        moves = [(1, hands[1][trick])] + [(s, hands[s][trick]) for s in (2, 3, 4, 5, 0)]
        state, new = plays(state, *moves)
        events += new
    return state, events


def test_shooting_the_moon_asks_the_shooter_by_default() -> None:
    state, events = shoot_the_moon({})
    assert isinstance(events[-1], MoonShot)
    assert events[-1] == MoonShot(hand=1, seat=1)
    assert not of_type(events, PenaltiesScored)
    assert to_act(state) == (1,)
    assert RULES.legal_commands(state.table, 1) == [
        ChooseMoon(choice="subtract"),
        ChooseMoon(choice="add"),
    ]
    assert refused(state, 2, ChooseMoon(choice="add")).code == "no_moon_choice"
    assert RULES.legal_commands(state.table, 2) == []


@pytest.mark.parametrize(
    ("choice", "points"),
    [("subtract", (0, -26, 0, 0, 0, 0)), ("add", (26, 0, 26, 26, 26, 26))],
)
def test_the_shooter_chooses_subtract_or_add(choice: str, points: tuple[int, ...]) -> None:
    state, _ = shoot_the_moon({})
    state, events = play_out(state, [(1, ChooseMoon(choice=choice))])
    scored, next_deal = events
    assert scored == PenaltiesScored(
        hand=1,
        taken=(0, 52, 0, 0, 0, 0),
        moon=1,
        moon_choice=choice,
        points=points,
        totals=points,
    )
    assert isinstance(next_deal, HandDealt) and (next_deal.hand, next_deal.dealer) == (2, 1)
    assert RULES.scores(state.table) == points
    assert [row.points for row in RULES.score_rows(state.table)] == [points]


@pytest.mark.parametrize(
    ("options", "points"),
    [
        ({"moon": "subtract"}, (0, -26, 0, 0, 0, 0)),
        ({"moon": "add"}, (26, 0, 26, 26, 26, 26)),
        ({"moon": "subtract", "moon_points": 40}, (0, -40, 0, 0, 0, 0)),
        ({"moon": "add", "moon_points": 13}, (13, 0, 13, 13, 13, 13)),
    ],
)
def test_a_fixed_moon_rule_scores_at_once(options: dict[str, Any], points: tuple[int, ...]) -> None:
    _state, events = shoot_the_moon(options)
    (scored,) = of_type(events, PenaltiesScored)
    assert not of_type(events, MoonShot)
    assert (scored.moon, scored.moon_choice, scored.points) == (1, options["moon"], points)


def test_a_shooter_who_leaves_before_choosing_gets_subtract() -> None:
    """Judgement call cancellation-hearts/leaver-moon-subtracts."""
    state, _ = shoot_the_moon({})
    _state, events = play_out(state, [(1, Leave())])
    assert events[0] == PlayerLeft(seat=1)
    assert isinstance(events[1], PenaltiesScored)
    assert events[1].moon_choice == "subtract"


def test_no_moon_without_the_kitty_heart() -> None:
    hands, _kitty = moon_hands()
    state = playing(hands, ("2S", "8C"))
    for trick in range(6):
        moves = [(1, hands[1][trick])] + [(s, hands[s][trick]) for s in (2, 3, 4, 5, 0)]
        state, events = plays(state, *moves)
    (scored,) = of_type(events, PenaltiesScored)
    assert (scored.taken[1], scored.moon, scored.points[1]) == (51, None, 51)


# Hand 2 (dealer 1): seat 2 leads a club and takes five hearts.
LAST_HANDS = [("5H",), ("6H",), ("2C",), ("2H",), ("3H",), ("4H",)]


def before_hand_two(totals: tuple[int, ...], target: int = 50) -> GameState:
    scored = PenaltiesScored(
        hand=1, taken=totals, moon=None, moon_choice=None, points=totals, totals=totals
    )
    return playing(LAST_HANDS, hand=2, options={"target": target}, history=(scored,))


def finish_hand_two(state: GameState) -> list[Event]:
    _state, events = plays(state, (2, "2C"), (3, "2H"), (4, "3H"), (5, "4H"), (0, "5H"), (1, "6H"))
    return events


def test_the_match_ends_once_a_total_reaches_the_target_and_the_lowest_wins() -> None:
    """Judgement call cancellation-hearts/target-checked-after-hand."""
    events = finish_hand_two(before_hand_two((30, 21, 45, 20, 35, 40)))
    scored, finished = events[-2:]
    assert isinstance(scored, PenaltiesScored) and scored.totals == (30, 21, 50, 20, 35, 40)
    assert finished == GameFinished(scores=(30, 21, 50, 20, 35, 40), winners=(3,), seed=SEED.hex())


def test_a_tie_for_the_lowest_total_is_shared() -> None:
    events = finish_hand_two(before_hand_two((30, 20, 45, 20, 35, 40)))
    assert events[-1] == GameFinished(
        scores=(30, 20, 50, 20, 35, 40), winners=(1, 3), seed=SEED.hex()
    )


def test_below_the_target_the_next_hand_is_dealt() -> None:
    state = before_hand_two((30, 20, 44, 20, 35, 40), target=150)
    events = finish_hand_two(state)
    assert isinstance(events[-1], HandDealt)
    assert (events[-1].hand, events[-1].dealer) == (3, 2)
    final = game_state.fold(state, events)
    assert final.status == "active"
    assert [row.label for row in RULES.score_rows(final.table)] == ["hand 1", "hand 2"]
    assert [row.points for row in RULES.score_rows(final.table)] == [
        (30, 20, 44, 20, 35, 40),
        (0, 0, 5, 0, 0, 0),
    ]
    assert RULES.scores(final.table) == (30, 20, 49, 20, 35, 40)
