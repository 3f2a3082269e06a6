"""Open Hand (RULES.md §3) as scenarios."""

from __future__ import annotations

import msgspec
import pytest

from domain import game
from domain.commands import Leave, PlayCard, VoteCancel
from domain.errors import Failure, RuleViolation
from domain.events import CardPlayed, GameCancelled, GameFinished, PlayerLeft, TrickWon
from domain.fairness import RandomStream
from domain.perspective import PUBLIC, Perspective
from domain.variant import Turn
from domain.variants.open_hand import OpenHand
from domain.variants.open_hand.messages import FirstLeaderChosen
from domain.variants.open_hand.rules import strength
from tests.rules.scenario import NOW, SEED, given, play_out, player, refused_creation, started, when

HANDS = [
    ("9H", "3S", "4S", "5S", "6S"),
    ("KD", "3H", "4H", "5H", "6H"),
    ("KC", "3D", "4D", "5D", "6D"),
]


def table(leader: int = 0, hands=HANDS, options=None):
    return given(
        [
            *started("open-hand", hands, options),
            FirstLeaderChosen(seat=leader, method="cutter", draws=()),
        ]
    )


def play(card: str) -> PlayCard:
    return PlayCard(card=card)


def test_equal_ranks_are_decided_by_suit_as_in_the_rules_example() -> None:
    # RULES.md example: 9H, KD, KC — K beats 9, clubs beat diamonds.
    state, events = play_out(table(), [(0, play("9H")), (1, play("KD")), (2, play("KC"))])
    assert events[-1] == TrickWon(trick=1, seat=2, cards=("9H", "KD", "KC"), points=1)
    assert state.table.points == (0, 0, 1)


@pytest.mark.parametrize(
    ("low", "high"),
    [("AS", "2D"), ("KS", "AD"), ("3S", "4D"), ("10H", "10S"), ("QD", "QC"), ("JC", "JH")],
)
def test_strength_order(low: str, high: str) -> None:
    assert strength(low) < strength(high)


def test_winner_leads_the_next_trick() -> None:
    state, _ = play_out(table(), [(0, play("9H")), (1, play("KD")), (2, play("KC"))])
    assert state.rules.to_act(state.table) == (2,)
    with pytest.raises(RuleViolation) as refused:
        when(state, 0, play("3S"))
    assert refused.value.code == "not_your_turn"


def test_no_duty_to_follow_suit() -> None:
    _state, events = play_out(table(), [(0, play("9H")), (1, play("3H")), (2, play("3D"))])
    assert events[-1].seat == 0


def test_the_first_card_of_a_trick_is_the_leaders() -> None:
    state = table(leader=1)
    assert state.rules.to_act(state.table) == (1,)
    state, _ = play_out(state, [(1, play("3H"))])
    assert state.rules.to_act(state.table) == (2,)


@pytest.mark.parametrize(
    ("card", "code", "failure"),
    [
        ("KD", "card_not_in_hand", Failure.CONFLICT),
        ("ZZ", "unknown_card", Failure.INVALID),
        ("qs", "unknown_card", Failure.INVALID),
    ],
)
def test_bad_cards_are_refused(card: str, code: str, failure: Failure) -> None:
    with pytest.raises(RuleViolation) as refused:
        when(table(), 0, play(card))
    assert (refused.value.code, refused.value.failure) == (code, failure)


def test_five_tricks_finish_the_game_and_reveal_the_seed() -> None:
    moves = [(0, play("9H")), (1, play("KD")), (2, play("KC"))]  # seat 2
    moves += [(2, play("3D")), (0, play("3S")), (1, play("3H"))]  # seat 0: spades beat hearts
    for rank in ("4", "5", "6"):
        moves += [(0, play(rank + "S")), (1, play(rank + "H")), (2, play(rank + "D"))]
    state, events = play_out(table(), moves)
    assert state.status == "finished"
    assert events[-1] == GameFinished(scores=(4, 0, 1), winners=(0,), seed=SEED.hex())
    assert sum(isinstance(e, TrickWon) for e in events) == 5
    assert state.rules.to_act(state.table) == ()


@pytest.mark.parametrize("tiebreak", ["shared", "playoff"])
def test_a_tie_is_shared(tiebreak: str) -> None:
    """Judgement call open-hand/playoff-without-cards."""
    hands = [
        ("AS", "3S", "4S", "5S", "6S"),
        ("AH", "KH", "4H", "5H", "6H"),
        ("3D", "7D", "8D", "9D", "10D"),
    ]
    state = table(hands=hands, options={"tiebreak": tiebreak})
    moves = [
        (0, play("AS")),
        (1, play("4H")),
        (2, play("3D")),  # seat 0
        (0, play("3S")),
        (1, play("AH")),
        (2, play("7D")),  # seat 1
        (1, play("KH")),
        (2, play("8D")),
        (0, play("4S")),  # seat 1
        (1, play("5H")),
        (2, play("9D")),
        (0, play("5S")),  # seat 2 (9D)
        (2, play("10D")),
        (0, play("6S")),
        (1, play("6H")),  # seat 2 (10D)
    ]
    state, events = play_out(state, moves)
    finished = events[-1]
    assert isinstance(finished, GameFinished)
    assert finished.scores == (1, 2, 2)
    # playoff: the tied players have no card left, so the tie stands (RULES.md §3).
    assert finished.winners == (1, 2)


def test_a_player_who_leaves_is_skipped() -> None:
    state, events = play_out(table(), [(0, play("9H")), (1, Leave())])
    # Seat 2 still has to play; the trick is not complete yet.
    assert events[-1:] == [PlayerLeft(seat=1)]
    state, events = play_out(state, [(2, play("KC"))])
    assert events[-1] == TrickWon(trick=1, seat=2, cards=("9H", "KC"), points=1)
    assert state.rules.to_act(state.table) == (2,)


def test_leaving_as_the_last_to_play_completes_the_trick() -> None:
    """Judgement call open-hand/trick-completes-on-leave."""
    _state, events = play_out(table(), [(0, play("9H")), (1, play("KD")), (2, Leave())])
    assert events[-2:] == [
        PlayerLeft(seat=2),
        TrickWon(trick=1, seat=1, cards=("9H", "KD"), points=1),
    ]


def test_a_card_on_the_table_still_wins_after_its_player_leaves() -> None:
    """Judgement call open-hand/card-stays-after-leave."""
    state, events = play_out(table(), [(0, play("9H")), (1, play("KD")), (1, Leave())])
    state, events = play_out(state, [(2, play("3D"))])
    assert events[-1].seat == 1
    # The winner has left: the next seat still at the table leads.
    assert state.rules.to_act(state.table) == (2,)


def test_leaving_leader_passes_the_lead() -> None:
    """Judgement call open-hand/leader-skips-leavers."""
    state, _ = play_out(table(), [(0, Leave())])
    assert state.rules.to_act(state.table) == (1,)
    with pytest.raises(RuleViolation) as refused:
        when(state, 0, play("3S"))
    assert refused.value.code == "player_left"


def test_when_one_seat_is_left_it_wins_by_forfeit_with_the_points_so_far() -> None:
    """RULES.md Leaving (issue 13, item 5): the seat left wins though seat 2 has more points;
    seats that left never win."""
    state, _ = play_out(table(), [(0, play("9H")), (1, play("KD")), (2, play("KC"))])
    state, events = play_out(state, [(2, Leave()), (0, Leave())])
    assert events[-1] == GameFinished(
        scores=(0, 0, 1), winners=(1,), seed=SEED.hex(), reason="forfeit"
    )


def test_cutter_leads_first_by_default() -> None:
    rules = OpenHand()
    options = msgspec.convert({}, rules.options_type)
    events = rules.start(rules.setup(options, 4), Turn(NOW, RandomStream(SEED, "g", [""] * 4), 1))
    assert events[1] == FirstLeaderChosen(seat=3, method="cutter", draws=())


def test_high_card_draw_picks_the_best_undealt_card() -> None:
    """Judgement call open-hand/high-card-draw."""
    rules = OpenHand()
    options = msgspec.convert({"first_leader": "high_card"}, rules.options_type)
    events = rules.start(rules.setup(options, 5), Turn(NOW, RandomStream(SEED, "g", [""] * 5), 1))
    dealt, chosen = events
    assert chosen.method == "high_card"
    assert len(set(chosen.draws)) == 5
    assert set(chosen.draws) <= set(dealt.rest.value)
    assert chosen.seat == max(range(5), key=lambda seat: strength(chosen.draws[seat]))


def test_unanimous_vote_cancels() -> None:
    state, events = play_out(table(), [(0, VoteCancel()), (1, VoteCancel())])
    assert state.status == "active"
    with pytest.raises(RuleViolation) as refused:
        when(state, 0, VoteCancel())
    assert refused.value.code == "already_voted"
    state, events = play_out(state, [(2, VoteCancel())])
    assert events[-1] == GameCancelled(by="vote", seed=SEED.hex())
    assert state.status == "cancelled"
    with pytest.raises(RuleViolation) as refused:
        when(state, 0, play("9H"))
    assert refused.value.code == "game_cancelled"


def test_votes_of_players_who_left_are_not_needed() -> None:
    _state, events = play_out(table(), [(0, Leave()), (1, VoteCancel()), (2, VoteCancel())])
    assert isinstance(events[-1], GameCancelled)


def test_cancel_rules() -> None:
    waiting = given(started("open-hand", HANDS)[:2])
    with pytest.raises(RuleViolation) as refused:
        game.cancel(waiting, by="creator", player_id=player(1))
    assert (refused.value.code, refused.value.failure) == ("not_creator", Failure.FORBIDDEN)
    assert game.cancel(waiting, by="creator", player_id=player(0))[0].by == "creator"
    running = table()
    with pytest.raises(RuleViolation) as refused:
        game.cancel(running, by="creator", player_id=player(0))
    assert refused.value.code == "game_already_started"
    assert game.cancel(running, by="admin", player_id=None) == [
        GameCancelled(by="admin", seed=SEED.hex())
    ]


def test_joining_rules() -> None:
    waiting = given(started("open-hand", HANDS)[:2])
    with pytest.raises(RuleViolation) as refused:
        game.join(waiting, player_id=player(0), name="again", client_seed="", now=NOW, version=2)
    assert refused.value.code == "already_seated"
    with pytest.raises(RuleViolation) as refused:
        game.join(table(), player_id="newcomer", name="N", client_seed="", now=NOW, version=9)
    assert refused.value.code == "game_full"


def test_unseated_players_cannot_act() -> None:
    with pytest.raises(RuleViolation) as refused:
        game.act(table(), player_id="stranger", command=play("9H"), now=NOW, version=9)
    assert (refused.value.code, refused.value.failure) == ("not_seated", Failure.FORBIDDEN)


@pytest.mark.parametrize(
    ("seats", "options", "code"),
    [
        (1, None, "invalid_seat_count"),
        (9, None, "invalid_seat_count"),
        (4, {"jokers": "zero"}, "unknown_option"),
        (4, {"first_leader": "dealer"}, "invalid_option"),
        (4, {"tiebreak": 3}, "invalid_option"),
    ],
)
def test_creation_is_validated(seats: int, options, code: str) -> None:
    refused = refused_creation("open-hand", seats, options)
    assert (refused.code, refused.failure) == (code, Failure.INVALID)


def test_a_played_card_is_public_in_every_view() -> None:
    state, events = play_out(table(), [(0, play("9H"))])
    assert events == [CardPlayed(seat=0, card="9H")]
    for viewer in (PUBLIC, Perspective(seat=1), Perspective(seat=2)):
        assert state.rules.public_table(state.table, viewer).trick[0].card == "9H"
