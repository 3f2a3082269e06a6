"""The rules every variant shares (RULES.md Common conventions, Leaving, Cancelling), as
scenarios: expiries decided the same whoever notices them, votes that survive a leave, void
cancelled games and forfeits (issue 13, items 1, 2, 3 and 5)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from domain import game, game_state
from domain.commands import Leave, PlayCard, VoteCancel
from domain.events import (
    CardPlayed,
    Event,
    GameCancelled,
    GameFinished,
    GameStarted,
    PlayerLeft,
    Secret,
    tag_of,
)
from domain.game_state import GameState
from domain.perspective import PUBLIC, Perspective
from domain.variants import VARIANTS
from domain.variants.heartbeat.messages import (
    ChoicesRevealed,
    ChoiceTimedOut,
    ChooseCard,
    RoundScored,
    TempoCardFlipped,
    TempoDeckShuffled,
)
from domain.variants.one_up_one_down.messages import (
    Challenge,
    ChallengeWindowClosed,
    ChallengeWindowExpired,
    Decline,
    FirstPlayerDrawn,
    PlayDown,
    PlayUp,
)
from domain.variants.open_hand.messages import FirstLeaderChosen
from projections.lobby import lobby_entry, results
from projections.scoreboard import scoreboard
from projections.views import view
from tests.rules.scenario import (
    NOW,
    SEED,
    created,
    given,
    play_out,
    player,
    refused,
    started,
    when,
)

PRESSURE = NOW + timedelta(seconds=5)


def seen(state: GameState, seat: int | None, now: datetime | None = None) -> Any:
    perspective = PUBLIC if seat is None else Perspective(seat=seat)
    return view(state, version=100, chain_head="head", perspective=perspective, now=now)


def noticed_first(state: GameState, seat: int, command: Any, now: datetime) -> list[Event]:
    """The events if the server had applied the expiry before the command arrived."""
    expired = game.expire(state, now=now, version=100)
    after = game_state.fold(state, expired)
    decided = game.act(
        after, player_id=player(seat), command=command, now=now, version=100 + len(expired)
    )
    return [*expired, *decided]


# --- item 1: an expiry's outcome does not depend on who noticed it ---------------------------

HEARTBEAT_HANDS = [
    ("BJ", "9H", "4C", "AS", "3S"),
    ("2C", "7D", "3H", "QD", "10C"),
    ("JH", "QH", "KH", "10H", "9D"),  # every card beats both choices below
]


def pressure_round(tempo: tuple[str, ...] = ("pressure", "double", "double")) -> GameState:
    deck = TempoDeckShuffled(size=len(tempo), cards=Secret(owner=None, value=tempo))
    flip = TempoCardFlipped(round=1, tempo="pressure", deadline=PRESSURE)
    return given([*started("heartbeat", HEARTBEAT_HANDS, {"tempo_deck": 12}), deck, flip])


def test_a_leave_after_the_pressure_deadline_comes_after_the_timeout() -> None:
    """RULES.md Timers [resolved] (issue 13, item 1): seat 2 leaves 1 ms after the deadline,
    before the server applied it. The timeout comes first, in the same batch: seat 2's random
    card is in the round and wins it (chips 0, 0, 1; without it seat 1 would win). Judgement call
    common/late-command-after-expiry."""
    state, _ = play_out(pressure_round(), [(0, ChooseCard(card="BJ")), (1, ChooseCard(card="2C"))])
    late = PRESSURE + timedelta(milliseconds=1)
    events = when(state, 2, Leave(), now=late)
    assert events == noticed_first(state, 2, Leave(), late)
    timed_out, revealed, scored, flipped, left = events
    assert isinstance(timed_out, ChoiceTimedOut) and timed_out.seats == (2,)
    assert isinstance(revealed, ChoicesRevealed) and len(revealed.plays) == 3
    assert scored == RoundScored(round=1, tempo="pressure", winners=(2,), chips=(0, 0, 1))
    assert flipped == TempoCardFlipped(round=2, tempo="double", deadline=None)
    assert left == PlayerLeft(seat=2)


def test_a_pressure_expiry_takes_effect_at_its_deadline_and_chains() -> None:
    """Judgement call heartbeat/expiry-at-deadline: noticed late, the expiry still happens at its
    deadline; the next Pressure deadline counts from there and, passed too, expires as well.
    Judgement call common/expiry-at-deadline."""
    state = pressure_round(("pressure", "pressure", "double"))
    events = game.expire(state, now=NOW + timedelta(seconds=11), version=100)
    flips = [e for e in events if isinstance(e, TempoCardFlipped)]
    assert flips == [
        TempoCardFlipped(round=2, tempo="pressure", deadline=PRESSURE + timedelta(seconds=5)),
        TempoCardFlipped(round=3, tempo="double", deadline=None),
    ]
    assert [e.round for e in events if isinstance(e, ChoiceTimedOut)] == [1, 2]
    # Noticed at the first deadline, the same expiry records the same events.
    early = game.expire(state, now=PRESSURE, version=100)
    assert early and events[: len(early)] == early


def ouod_window() -> GameState:
    """Seat 0 played 8H face up, seat 1 a face-down card declared 10 at NOW (15 s window)."""
    hands = [("8H", "9S", "4D", "JC"), ("10C", "6D", "7H", "KS"), ("5S", "QD", "AH", "2C")]
    events = [*started("one-up-one-down", hands), FirstPlayerDrawn(rounds=(), seat=0)]
    state = given(events)
    state, _ = play_out(state, [(0, PlayUp(card="8H")), (1, PlayDown(card="10C", declared="10"))])
    return state


WINDOW_SHUT = NOW + timedelta(seconds=15)


@pytest.mark.parametrize("late", [2, 60])
def test_a_play_just_after_the_challenge_deadline_is_taken(late: int) -> None:
    """RULES.md Timers [resolved] (issue 13, item 1); judgement call
    one-up-one-down/late-answer-after-expiry: a play 2 or 60 ms after the deadline is no longer
    refused challenge_window_open: the window expires first, then the play is decided. Judgement
    call common/refused-after-expiry-records-nothing."""
    state = ouod_window()
    at = WINDOW_SHUT + timedelta(milliseconds=late)
    events = when(state, 2, PlayUp(card="QD"), now=at)
    assert events == [
        ChallengeWindowExpired(unanswered=(2, 0)),
        ChallengeWindowClosed(seat=1, declared="10"),
        CardPlayed(seat=2, card="QD"),
    ]
    assert events == noticed_first(state, 2, PlayUp(card="QD"), at)
    assert refused(state, 2, Challenge(), now=at).code == "no_challenge_window"


def test_legal_commands_after_the_deadline_are_those_after_the_expiry() -> None:
    """RULES.md Timers [resolved] (issue 13, item 1): a view made at a time past the deadline
    shows the game after the expiry the server has yet to record, so it never lists a challenge
    or decline that would be refused. Judgement call common/view-at-request-time."""
    state = ouod_window()
    before = seen(state, 2, now=WINDOW_SHUT - timedelta(seconds=1))
    assert [tag_of(c) for c in before.legal_commands][:2] == ["challenge", "decline"]
    assert not before.expiry_pending
    after = seen(state, 2, now=WINDOW_SHUT + timedelta(milliseconds=2))
    assert after.expiry_pending and after.version == 100
    assert after.to_act == (2,) and after.deadline is None
    kinds = {tag_of(c) for c in after.legal_commands}
    assert "challenge" not in kinds and "decline" not in kinds and "play_up" in kinds
    for command in after.legal_commands:  # every one of them is taken at that time
        if isinstance(command, PlayUp):
            when(state, 2, command, now=WINDOW_SHUT + timedelta(milliseconds=2))
    answers = {tag_of(c) for c in seen(state, 0, now=WINDOW_SHUT).legal_commands}
    assert answers == {"vote_end", "vote_cancel", "leave"}  # no challenge, no decline
    # Without a time the view is the stored state, as replays show it.
    assert not seen(state, 2).expiry_pending


def test_a_view_never_reveals_the_seed_before_the_log_does() -> None:
    """Judgement call common/seed-revealed-by-the-log."""
    state = pressure_round(("pressure", "pressure", "pressure"))
    after = seen(state, None, now=NOW + timedelta(minutes=1))  # all three rounds timed out
    assert (after.status, after.expiry_pending, after.seed) == ("finished", True, None)


def test_the_watcher_still_applies_expiries_nobody_triggered() -> None:
    state = ouod_window()
    assert game.expire(state, now=WINDOW_SHUT - timedelta(microseconds=1), version=100) == []
    assert game.expire(state, now=WINDOW_SHUT, version=100) == [
        ChallengeWindowExpired(unanswered=(2, 0)),
        ChallengeWindowClosed(seat=1, declared="10"),
    ]


def test_an_answer_before_the_deadline_is_decided_as_ever() -> None:
    state = ouod_window()
    events = when(state, 2, Decline(), now=WINDOW_SHUT - timedelta(microseconds=1))
    assert [type(e).__name__ for e in events] == ["ChallengeDeclined"]


# --- item 2: a unanimous vote is not lost when the last non-voter leaves --------------------

OPEN_HANDS = [
    ("2S", "2H", "2D", "AS", "3D"),
    ("4C", "5C", "6C", "7C", "8C"),
    ("4D", "5D", "6D", "7D", "8D"),
]


def open_hand(hands: list[tuple[str, ...]] = OPEN_HANDS) -> GameState:
    leader = FirstLeaderChosen(seat=0, method="cutter", draws=())
    return given([*started("open-hand", hands), leader])


def test_the_last_non_voter_leaving_cancels_the_game() -> None:
    """RULES.md Cancelling [resolved] (issue 13, item 2)."""
    state, _ = play_out(open_hand(), [(0, VoteCancel()), (1, VoteCancel())])
    state, events = play_out(state, [(2, Leave())])
    assert events == [PlayerLeft(seat=2), GameCancelled(by="vote", seed=SEED.hex())]
    assert state.status == "cancelled"


def test_a_unanimous_vote_outweighs_the_forfeit() -> None:
    """Judgement call vote-outweighs-forfeit: the last seat at the table had voted to cancel,
    so the game is cancelled rather than won by forfeit. Judgement call
    common/vote-outweighs-forfeit."""
    state, _ = play_out(open_hand(OPEN_HANDS[:2]), [(0, VoteCancel())])
    state, events = play_out(state, [(1, Leave())])
    assert events == [PlayerLeft(seat=1), GameCancelled(by="vote", seed=SEED.hex())]


def test_a_leave_without_every_remaining_vote_cancels_nothing() -> None:
    state, _ = play_out(open_hand(), [(0, VoteCancel())])
    state, events = play_out(state, [(2, Leave())])
    assert events == [PlayerLeft(seat=2)]
    assert state.status == "active"


# --- item 3: a cancelled game reads as void --------------------------------------------------


def test_a_cancelled_game_shows_its_points_but_no_ranking_and_no_winners() -> None:
    """RULES.md Cancelling (issue 13, item 3): summary, lobby entry and scoreboard. Judgement call
    common/void-keeps-points."""
    trick = [(0, PlayCard(card="2S")), (1, PlayCard(card="4C")), (2, PlayCard(card="4D"))]
    state, _ = play_out(open_hand(), trick)
    state, _ = play_out(state, [(seat, VoteCancel()) for seat in range(3)])
    board = scoreboard(state)
    assert (board.ranking, board.winners, board.totals) == ((), None, (1, 0, 0))
    assert board.void
    summary = seen(state, None)
    assert (summary.status, summary.void, summary.end_reason) == ("cancelled", True, "cancelled")
    assert (summary.scores, summary.winners) == ((1, 0, 0), None)
    entry = lobby_entry(state, version=9, created_at=NOW, updated_at=NOW)
    assert (entry.void, entry.scores, entry.winners) == (True, (1, 0, 0), None)
    assert results(state) == []  # no leaderboard counts it


def test_a_finished_game_is_not_void_and_ranks() -> None:
    state = open_hand()
    for card in ("2S", "2H", "2D", "AS", "3D"):
        state, _ = play_out(state, [(0, PlayCard(card=card))])
        for seat in (1, 2):
            legal = state.rules.legal_moves(state.table, seat)
            state, _ = play_out(state, [(seat, legal[0])])
    board = scoreboard(state)
    assert (state.status, board.void, board.end_reason) == ("finished", False, "complete")
    assert [s.seat for s in board.ranking if s.winner] == [0]


# --- item 5: forfeits --------------------------------------------------------------------------


def test_a_seat_that_left_never_wins_even_with_the_most_points() -> None:
    """Judgement call open-hand/leaver-never-wins (RULES.md Leaving: a seat that left never
    wins): seat 0 takes three tricks and leaves; seat 1 wins with two. Judgement calls
    open-hand/leaver-keeps-points, common/leaver-never-wins, common/ranking-winners-first."""
    state = open_hand()
    for card, low1, low2 in (("2S", "4C", "4D"), ("2H", "5C", "5D"), ("2D", "6C", "6D")):
        state, _ = play_out(
            state, [(0, PlayCard(card=card)), (1, PlayCard(card=low1)), (2, PlayCard(card=low2))]
        )
    state, _ = play_out(state, [(0, Leave())])
    moves = [(1, "7C"), (2, "7D"), (1, "8C"), (2, "8D")]
    state, events = play_out(state, [(seat, PlayCard(card=card)) for seat, card in moves])
    assert events[-1] == GameFinished(scores=(3, 2, 0), winners=(1,), seed=SEED.hex())
    ranking = scoreboard(state).ranking
    assert [(s.seat, s.rank, s.winner) for s in ranking] == [
        (1, 1, True),
        (0, 2, False),
        (2, 3, False),
    ]


def test_a_forfeit_scores_nothing_it_did_not_score_before() -> None:
    """RULES.md Leaving (issue 13, item 5): the seat left wins; no place points invented."""
    state, _ = play_out(open_hand(), [(1, Leave()), (2, Leave())])
    assert state.outcome is not None
    assert (state.outcome.reason, state.outcome.winners, state.outcome.scores) == (
        "forfeit",
        (0,),
        (0, 0, 0),
    )
    assert seen(state, None).end_reason == "forfeit"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_when_every_seat_has_left_nobody_wins(variant: str) -> None:
    """RULES.md Leaving (issue 13, item 5): if nobody remains, the game ends with no winner.
    (Commands cannot get there, the game ends when one seat is left; the rule is the outcome's.)
    Judgement call common/leaver-never-wins."""
    rules = VARIANTS[variant]
    seats = rules.min_seats
    state = given([*created(variant, seats), GameStarted(seat_count=seats)])
    state = game_state.fold(state, [PlayerLeft(seat=seat) for seat in range(seats)])
    outcome = rules.outcome(state.table)
    assert outcome is not None
    assert (outcome.winners, outcome.reason) == ((), "forfeit")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_with_one_seat_left_that_seat_wins_by_forfeit(variant: str) -> None:
    rules = VARIANTS[variant]
    seats = rules.min_seats
    state = given([*created(variant, seats), GameStarted(seat_count=seats)])
    state = game_state.fold(state, [PlayerLeft(seat=seat) for seat in range(1, seats)])
    outcome = rules.outcome(state.table)
    assert outcome is not None
    assert (outcome.winners, outcome.reason) == ((0,), "forfeit")
