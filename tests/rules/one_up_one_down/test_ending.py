"""One Up One Down (RULES.md §5): winning, the end vote, the play cap and stalemates."""

from __future__ import annotations

from domain.commands import Leave
from domain.events import CardPlayed, GameFinished
from domain.perspective import PUBLIC
from domain.variants.one_up_one_down.messages import (
    CardDrawn,
    Challenge,
    Challenged,
    ChallengeResolved,
    ChallengeWindowClosed,
    Decline,
    EndVoted,
    LastCardStood,
    PileCollected,
    StalemateEnded,
    VoteEnd,
)
from tests.rules.one_up_one_down.scenarios import HANDS3, STOCK, down, table, to_act, up
from tests.rules.scenario import SEED, play_out, refused


def test_a_face_up_last_card_not_below_the_target_wins() -> None:
    state = table([("9S",), ("10C", "6D")], STOCK)
    state, events = play_out(state, [(0, up("9S"))])
    assert events[1:] == [
        LastCardStood(seat=0),
        GameFinished(scores=(1, 0), winners=(0,), seed=SEED.hex()),
    ]
    assert state.status == "finished"
    assert to_act(state) == ()


def test_a_face_up_last_card_below_the_target_draws_instead_of_winning() -> None:
    state, _ = play_out(table([("9S", "4D"), ("KC", "6D")], STOCK), [(0, up("9S"))])
    state, _ = play_out(state, [(1, down("KC", "K")), (0, Decline())])
    state, events = play_out(state, [(0, up("4D"))])
    assert [type(e) for e in events] == [CardPlayed, CardDrawn]
    assert state.status == "active"


def test_a_face_down_last_card_wins_once_its_window_closes_unchallenged() -> None:
    state, _ = play_out(table([("9S", "QD"), ("4C", "6D"), ("5S", "7S")], STOCK), [(0, up("9S"))])
    state, _ = play_out(state, [(1, down("6D", "J"))])
    state, _ = play_out(state, [(2, Decline()), (0, Decline())])
    state, _ = play_out(state, [(2, up("5S")), (0, down("QD", "5"))])
    state, events = play_out(state, [(1, Decline())])
    assert state.status == "active"
    state, events = play_out(state, [(2, Decline())])
    assert events[-3:] == [
        ChallengeWindowClosed(seat=0, declared="5"),
        LastCardStood(seat=0),
        GameFinished(scores=(1, 0, 0), winners=(0,), seed=SEED.hex()),
    ]


def test_a_face_down_last_card_that_survives_a_challenge_wins() -> None:
    state = table([("9S", "QD"), ("4C", "6D"), ("5S", "7S")], STOCK)
    state, _ = play_out(state, [(0, up("9S")), (1, down("6D", "J"))])
    state, _ = play_out(state, [(2, Decline()), (0, Decline()), (2, up("5S"))])
    state, events = play_out(state, [(0, down("QD", "Q")), (1, Challenge())])
    assert events[1:] == [
        Challenged(seat=1),
        ChallengeResolved(
            seat=0, challenger=1, card="QD", declared="Q", target="5", succeeded=False
        ),
        PileCollected(seat=1, shown=("9S", "5S", "QD"), hidden=events[3].hidden),
        LastCardStood(seat=0),
        GameFinished(scores=(1, 0, 0), winners=(0,), seed=SEED.hex()),
    ]
    assert events[3].hidden.owner == 1
    assert events[3].hidden.value == ("6D",)


def test_a_face_down_last_card_caught_lying_takes_the_pile() -> None:
    state = table([("9S", "3D"), ("KC", "6D"), ("5S", "7S")], STOCK)
    state, _ = play_out(state, [(0, up("9S")), (1, down("KC", "K"))])
    state, _ = play_out(state, [(2, Decline()), (0, Decline()), (2, up("5S"))])
    state, events = play_out(state, [(0, down("3D", "7")), (1, Challenge())])
    assert events[-2].succeeded
    assert events[-1].seat == 0
    assert state.status == "active"
    assert sorted(state.table.hands[0]) == sorted(("9S", "KC", "5S", "3D"))
    assert to_act(state) == (0,)


def test_a_unanimous_vote_once_the_stock_is_empty_gives_the_fewest_cards_the_win() -> None:
    hands = [("9S", "4D", "QC"), ("10C", "6D"), ("5S", "QD", "AH")]
    state = table(hands)
    assert VoteEnd() in state.rules.legal_commands(state.table, 1)
    state, events = play_out(state, [(1, VoteEnd()), (0, VoteEnd())])
    assert events == [EndVoted(seat=1), EndVoted(seat=0)]
    assert refused(state, 0, VoteEnd()).code == "already_voted"
    state, events = play_out(state, [(2, VoteEnd())])
    assert events[1:] == [
        StalemateEnded(reason="vote", hand_sizes=(3, 2, 3), winners=(1,)),
        GameFinished(scores=(0, 1, 0), winners=(1,), seed=SEED.hex()),
    ]


def test_no_vote_while_the_stock_holds_cards_and_a_play_clears_the_votes() -> None:
    """Judgement call one-up-one-down/votes-reset-on-play."""
    assert refused(table(HANDS3, STOCK), 1, VoteEnd()).code == "stock_not_empty"
    state, _ = play_out(table(HANDS3), [(1, VoteEnd()), (2, VoteEnd()), (0, up("8H"))])
    assert state.rules.public_table(state.table, PUBLIC).end_votes == ()
    state, _ = play_out(state, [(1, down("KS", "K"))])
    assert refused(state, 2, VoteEnd()).code == "challenge_window_open"


def test_ties_for_the_fewest_cards_share_the_win_and_left_seats_do_not_count() -> None:
    hands = [("4D", "QC"), ("10C",), ("5S", "QD"), ("3H",)]
    state, events = play_out(table(hands), [(1, Leave()), (3, Leave())])
    state, events = play_out(state, [(0, VoteEnd()), (2, VoteEnd())])
    assert events[-2] == StalemateEnded(reason="vote", hand_sizes=(2, 1, 2, 1), winners=(0, 2))
    assert events[-1].scores == (1, 0, 1, 0)


def test_the_play_cap_ends_the_game_the_same_way() -> None:
    state = table(HANDS3, STOCK, options={"max_plays": 3})
    state, _ = play_out(state, [(0, up("8H")), (1, down("10C", "10"))])
    state, _ = play_out(state, [(2, Decline()), (0, Decline())])
    state, events = play_out(state, [(2, up("5S"))])  # below 10: draws 3C, then the cap
    assert events[-2] == StalemateEnded(reason="cap", hand_sizes=(3, 3, 4), winners=(0, 1))
    assert state.status == "finished"


def test_a_capped_face_down_play_waits_for_its_window() -> None:
    """Judgement call one-up-one-down/cap-counts-card-plays."""
    state = table(HANDS3, STOCK, options={"max_plays": 2})
    state, _ = play_out(state, [(0, up("8H")), (1, down("10C", "10"))])
    assert state.status == "active"
    state, events = play_out(state, [(2, Challenge())])
    assert events[-2] == StalemateEnded(reason="cap", hand_sizes=(3, 3, 6), winners=(0, 1))


def test_a_face_up_last_card_below_the_target_with_the_stock_empty_stands_and_wins() -> None:
    """RULES.md §5 Winning, resolved (issue 13, item 4): with nothing to draw, the last card
    stands even below the target, and its player wins."""
    state, _ = play_out(table([("9S", "4D"), ("KC", "5D")]), [(0, up("9S"))])
    state, _ = play_out(state, [(1, down("KC", "K")), (0, Decline())])
    state, events = play_out(state, [(0, up("4D"))])  # 4 is below the target K; no stock
    assert events == [
        CardPlayed(seat=0, card="4D"),
        LastCardStood(seat=0),
        GameFinished(scores=(1, 0), winners=(0,), seed=SEED.hex()),
    ]
    assert state.status == "finished"


def test_a_face_up_last_card_below_the_target_draws_while_the_stock_lasts() -> None:
    state, _ = play_out(table([("9S", "4D"), ("KC", "5D")], stock=("7C",)), [(0, up("9S"))])
    state, _ = play_out(state, [(1, down("KC", "K")), (0, Decline())])
    state, events = play_out(state, [(0, up("4D"))])
    assert [type(e) for e in events] == [CardPlayed, CardDrawn]
    assert state.status == "active"
    assert state.table.hands[0] == ("7C",)


def test_a_table_where_nobody_still_in_holds_a_card_ends_in_a_stalemate() -> None:
    """A safety net, not a judgement call: cards only run out for a seat whose last card stood
    (it has won), so this takes a deal that gave two seats nothing. Judgement call
    one-up-one-down/blocked-ends-like-stalemate."""
    state = table([(), (), ("5S", "6S")])
    state, events = play_out(state, [(2, Leave())])
    assert events[-2:] == [
        StalemateEnded(reason="blocked", hand_sizes=(0, 0, 2), winners=(0, 1)),
        GameFinished(scores=(1, 1, 0), winners=(0, 1), seed=SEED.hex()),
    ]


def test_an_end_vote_waits_for_the_open_window() -> None:
    """Judgement call one-up-one-down/vote-needs-closed-window."""
    state, _ = play_out(table(HANDS3), [(0, up("8H")), (1, down("10C", "10"))])
    assert refused(state, 2, VoteEnd()).code == "challenge_window_open"
    assert VoteEnd() not in state.rules.legal_moves(state.table, 2)
    state, _ = play_out(state, [(2, Decline()), (0, Decline())])
    assert VoteEnd() in state.rules.legal_moves(state.table, 2)
