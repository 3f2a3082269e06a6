"""Heartbeat (RULES.md §1): the Pressure tempo card, its deadline and the timeout pick."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta

import msgspec
import pytest

from domain import game, game_state
from domain.events import Secret
from domain.fairness import RandomStream
from domain.perspective import PUBLIC, Perspective, redact
from domain.turns import Play
from domain.variant import Turn
from domain.variants.heartbeat import Heartbeat
from domain.variants.heartbeat.messages import (
    CardChosen,
    ChoicesRevealed,
    ChoiceTimedOut,
    RoundScored,
    TempoCardFlipped,
    TempoDeckShuffled,
)
from projections.views import view
from tests.rules.heartbeat.scenarios import HANDS, act, choose, flipped, heartbeat, moves
from tests.rules.scenario import NOW, SEED, given, started


@pytest.mark.parametrize("seconds", [5, 10])
def test_pressure_records_a_deadline_after_the_flip(seconds: int) -> None:
    rules = Heartbeat()
    options = msgspec.convert({"pressure_seconds": seconds}, rules.options_type)
    for index in range(200):  # find a game whose first tempo card is Pressure
        rng = RandomStream(SEED, f"g{index}", ["", ""])
        events = rules.start(rules.setup(options, 2), Turn(NOW, rng, 1))
        flip = events[-1]
        assert isinstance(flip, TempoCardFlipped)
        if flip.tempo == "pressure":
            break
    assert flip.deadline == NOW + timedelta(seconds=seconds)
    state = heartbeat(
        ("pressure", "double", "double"), {"pressure_seconds": seconds}, seconds=seconds
    )
    assert state.rules.deadline(state.table) == NOW + timedelta(seconds=seconds)
    assert view(state, version=1, chain_head="h", perspective=PUBLIC).deadline == flip.deadline


def test_no_deadline_outside_a_pressure_round() -> None:
    state = heartbeat(("double", "pressure", "pressure"))
    assert state.rules.deadline(state.table) is None
    assert game.expire(state, now=NOW + timedelta(days=1), version=9) == []


DEADLINE = NOW + timedelta(seconds=5)


def test_a_choice_just_before_the_deadline_is_taken() -> None:
    state = heartbeat(("pressure", "double", "double"))
    _, events = act(state, 0, choose("KS"), now=DEADLINE - timedelta(microseconds=1))
    assert events == [CardChosen(round=1, seat=0, card=events[0].card)]


@pytest.mark.parametrize(
    "at", [DEADLINE, DEADLINE + timedelta(seconds=1)], ids=["exactly-at", "after"]
)
def test_a_choice_at_or_after_the_deadline_is_decided_after_the_timeout(at: datetime) -> None:
    """Judgement call heartbeat/late-command-after-expiry (RULES.md Timers, resolved): the
    timeout comes first in the same batch, then the choice counts for the next round. Judgement
    calls heartbeat/late-choice-counts-next-round, common/late-command-after-expiry."""
    state = heartbeat(("pressure", "double", "double"))
    expired = game.expire(state, now=at, version=100)
    after = game_state.fold(state, expired)
    card = after.table.hands[0][0]  # a card the timeout left in seat 0's hand
    _, events = act(state, 0, choose(card), now=at)
    assert events[: len(expired)] == expired
    assert isinstance(events[0], ChoiceTimedOut) and events[0].seats == (0, 1, 2)
    (chosen,) = events[len(expired) :]
    assert isinstance(chosen, CardChosen)
    assert (chosen.round, chosen.seat, chosen.card.value) == (2, 0, card)


def test_expiry_is_not_due_before_the_deadline() -> None:
    state = heartbeat(("pressure", "double", "double"))
    assert game.expire(state, now=DEADLINE - timedelta(microseconds=1), version=9) == []


def test_expiry_picks_a_random_playable_card_for_each_seat_that_has_not_chosen() -> None:
    state, _ = act(heartbeat(("pressure", "double", "reverse")), 1, choose("QD"))
    events = game.expire(state, now=DEADLINE, version=9)
    timed_out = events[0]
    assert isinstance(timed_out, ChoiceTimedOut)
    assert timed_out.seats == (0, 2)
    picks = [secret.unwrap() for secret in timed_out.cards]
    assert [secret.owner for secret in timed_out.cards] == [0, 2]
    assert picks[0] in HANDS[0] and picks[1] in HANDS[2]
    assert [type(e) for e in events[1:]] == [ChoicesRevealed, RoundScored, TempoCardFlipped]
    revealed = events[1]
    assert revealed.plays == (Play(0, picks[0]), Play(1, "QD"), Play(2, picks[1]))
    # Only one timeout event, and the picks are as secret as choices until the reveal.
    assert sum(isinstance(e, ChoiceTimedOut) for e in events) == 1
    assert all(s.value is None for s in redact(timed_out, Perspective(seat=1)).cards)
    after = game_state.fold(state, events)
    assert after.rules.to_act(after.table) == (0, 1, 2)
    assert events[-1] == TempoCardFlipped(round=2, tempo="double", deadline=None)


def test_the_timeout_pick_does_not_depend_on_when_expiry_runs_or_on_others() -> None:
    """Judgement call heartbeat/timeout-pick-label."""
    state = heartbeat(("pressure", "double", "double"))
    at_once = game.expire(state, now=DEADLINE, version=9)
    much_later = game.expire(state, now=DEADLINE + timedelta(hours=3), version=9)
    assert at_once[:3] == much_later[:3]
    # Seat 2's pick is the same whether or not seat 1 had chosen before the deadline.
    chose, _ = act(state, 1, choose("2C"))
    other = game.expire(chose, now=DEADLINE, version=9)[0]
    assert other.cards[-1].unwrap() == at_once[0].cards[-1].unwrap()


def test_the_timeout_pick_is_uniform_over_the_playable_cards() -> None:
    counts: Counter[str] = Counter()
    events = started("heartbeat", HANDS, {"tempo_deck": 12})
    deck = TempoDeckShuffled(size=3, cards=Secret(owner=None, value=("pressure",) * 3))
    for index in range(600):
        state = given([*events, deck, flipped(1, "pressure")])
        state = msgspec.structs.replace(state, game_id=f"game-{index}")
        counts[game.expire(state, now=DEADLINE, version=9)[0].cards[0].unwrap()] += 1
    assert set(counts) == set(HANDS[0])
    assert min(counts.values()) > 80  # 120 expected per card


def test_a_pressure_round_in_a_later_round_gets_its_own_deadline() -> None:
    state = heartbeat(("double", "pressure", "pressure"))
    later = NOW + timedelta(minutes=1)
    state, _ = moves(state, (0, choose("KS")), (1, choose("QD")))
    state, events = act(state, 2, choose("JH"), now=later)
    assert events[-1] == TempoCardFlipped(
        round=2, tempo="pressure", deadline=later + timedelta(seconds=5)
    )
    assert state.rules.deadline(state.table) == later + timedelta(seconds=5)
