"""Double Heartbeat (RULES.md §2): alliances, as scenarios at four players (no dealer surplus, so
no bury phase)."""

from __future__ import annotations

from domain.errors import Failure
from domain.events import TrickWon
from domain.perspective import FULL, PUBLIC, Perspective
from domain.variant import ScoreRow
from domain.variants.double_heartbeat.messages import (
    AllianceBroken,
    AllianceFormed,
    CombinationPlayed,
    PlayCombination,
)
from tests.rules.double_heartbeat.scenarios import (
    PASS,
    RULES,
    WON_FIRST_TRICK,
    deal,
    play,
    to_act,
    view,
)
from tests.rules.scenario import play_out, refused

ALLIANCE_HANDS = [
    "3S 4S 7D 9S 9H 9D 9C 10S 10H QS QH",
    "3H 10D 10C 5S 6S",
    "7S 7H 10S 10C JS JH",
    "5H 6H 8H KD",
]

ALLIED = [*WON_FIRST_TRICK, (0, play("10S 10H")), (1, play("10D 10C"))]


def test_the_copy_of_a_trick_winners_new_lead_forms_an_alliance() -> None:
    state, events = play_out(deal(ALLIANCE_HANDS), WON_FIRST_TRICK)
    assert events[-1] == TrickWon(trick=1, seat=0, cards=("3S",), points=0)
    assert to_act(state) == (0,)
    state, _ = play_out(state, [(0, play("10S 10H"))])
    assert view(state).alliance_open
    assert PlayCombination(cards=["10D", "10C"], combination="pair") in RULES.legal_commands(
        state.table, 1
    )
    state, events = play_out(state, [(1, play("10D 10C"))])
    assert events == [
        CombinationPlayed(
            seat=1, cards=("10D", "10C"), combination="pair", top=7, rank="10", bonus=0
        ),
        AllianceFormed(leader=0, copier=1),
    ]
    for perspective in (PUBLIC, Perspective(seat=0), Perspective(seat=2), FULL):
        shown = view(state, perspective)
        assert shown.alliances == ((0, 1),)
        assert shown.allies == (1, 0, None, None)
        assert shown.top.seat == 1  # the copy is the new top play
    assert not view(state).alliance_open


def test_at_most_one_alliance_per_lead() -> None:
    state, _ = play_out(deal(ALLIANCE_HANDS), ALLIED)
    assert refused(state, 2, play("10S 10C")).code == "combination_too_low"


def test_copying_the_opening_lead_forms_no_alliance() -> None:
    state, _ = play_out(deal(ALLIANCE_HANDS), [(0, play("3S"))])
    assert not view(state).alliance_open
    error = refused(state, 1, play("3H"))
    assert (error.code, error.failure) == ("no_alliance_on_this_lead", Failure.CONFLICT)
    assert RULES.legal_commands(state.table, 1)[0] == PASS
    assert play("3H") not in RULES.legal_commands(state.table, 1)


def test_no_alliance_when_the_leader_is_already_allied() -> None:
    moves = [*ALLIED, (2, PASS), (3, PASS), (0, PASS)]
    state, events = play_out(deal(ALLIANCE_HANDS), moves)
    assert events[-1] == TrickWon(trick=2, seat=1, cards=("10S", "10H", "10D", "10C"), points=0)
    state, _ = play_out(state, [(1, play("5S")), (2, PASS)])
    assert refused(state, 3, play("5H")).code == "already_allied"


def test_no_alliance_when_the_copier_is_already_allied() -> None:
    moves = [*ALLIED, (2, PASS), (3, PASS), (0, PASS), (1, play("5S")), (2, play("7S"))]
    moves += [(3, PASS), (0, PASS), (1, PASS), (2, play("7H")), (3, PASS)]
    state, _ = play_out(deal(ALLIANCE_HANDS), moves)
    assert view(state).alliance_open  # seat 2 won and leads, unallied
    assert refused(state, 0, play("7D")).code == "already_allied"


def test_allies_cannot_beat_each_other_with_a_non_bomb() -> None:
    state, _ = play_out(deal(ALLIANCE_HANDS), [*ALLIED, (2, PASS), (3, PASS)])
    error = refused(state, 0, play("QS QH"))
    assert (error.code, error.failure) == ("ally_cannot_beat_ally", Failure.CONFLICT)
    legal = RULES.legal_commands(state.table, 0)
    assert legal == [PASS, PlayCombination(cards=["9S", "9H", "9D", "9C"], combination="bomb")]


def test_betrayal_allowed_a_bomb_over_an_ally_ends_the_alliance() -> None:
    """Judgement call double-heartbeat/betrayal-ends-alliance-first."""
    state, _ = play_out(deal(ALLIANCE_HANDS), [*ALLIED, (2, PASS), (3, PASS)])
    state, events = play_out(state, [(0, play("9S 9H 9D 9C"))])
    assert events == [
        AllianceBroken(by=0, ally=1),
        CombinationPlayed(
            seat=0, cards=("9S", "9H", "9D", "9C"), combination="bomb", top=6, rank="9", bonus=2
        ),
    ]
    assert view(state).alliances == ()
    assert RULES.scores(state.table) == (2, 0, 0, 0)
    assert RULES.score_rows(state.table) == [
        ScoreRow(label="hand 1 (in play)", points=(2, 0, 0, 0))
    ]


def test_betrayal_forbidden_an_ally_must_pass() -> None:
    state = deal(ALLIANCE_HANDS, options={"betrayal": "forbidden"})
    state, _ = play_out(state, [*ALLIED, (2, PASS), (3, PASS)])
    assert refused(state, 0, play("9S 9H 9D 9C")).code == "betrayal_forbidden"
    assert refused(state, 0, play("QS QH")).code == "ally_cannot_beat_ally"
    assert RULES.legal_commands(state.table, 0) == [PASS]
