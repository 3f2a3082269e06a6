"""At least 300 random full Cancellation Hearts matches (seeded; a failure names its seed).

Each match is re-checked from its events by an independent model of the rules: the deal and the
conservation of all 104 cards every hand, the passes, every trick's cancellations and winner, the
kitty, the scores and the moon, the totals, the outcome. Replay must equal the live game, and
at sampled moments no seat is served a card it may not know (passes above all).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain import game, game_state
from domain.cards import RANKS
from domain.choices import pick
from domain.events import CardPlayed, GameStarted, HandDealt, Secret
from domain.perspective import PUBLIC, Perspective
from domain.variants.cancellation_hearts import CancellationHearts
from domain.variants.cancellation_hearts.messages import (
    CardsPassed,
    PassesDelivered,
    PenaltiesScored,
)
from service.tools.bench.engine import play_rules_only
from tests.property.cancellation_hearts_model import check_match
from tests.property.playouts import START, card_tokens, games_per_test, play, served_json
from tests.rules.scenario import created, given, player

VARIANT = "cancellation-hearts"
CHUNKS = 4


def matches() -> int:
    """300 matches at the default CARDLEDGER_PLAYOUTS of 1000; fewer for a quick run."""
    return max(CHUNKS, games_per_test() * 3 // 10)


def current_hand_events(aggregate: Any) -> list[Any]:
    pending = aggregate.pending_events
    for index in range(len(pending) - 1, -1, -1):
        if isinstance(pending[index].payload, HandDealt):
            return pending[index:]
    return []


def check_no_leak(aggregate: Any, rng: random.Random) -> None:
    state = aggregate.state
    if state.over:
        return
    table = state.table
    passing = table.phase == "passing"
    if rng.random() > (0.3 if passing else 0.01):
        return
    recorded = current_hand_events(aggregate)
    seat = rng.randrange(state.seat_count)
    played: set[str] = set()
    known = set(table.hands[seat]) | set(table.passes[seat] or ()) | set(table.received[seat])
    for payload in (r.payload for r in recorded):
        if isinstance(payload, CardPlayed):
            played.add(payload.card)
        elif isinstance(payload, CardsPassed) and payload.seat == seat:
            known |= set(payload.cards.unwrap())
    hidden = set(table.kitty)
    if table.kitty_taker == seat:
        known |= set(table.kitty_taken)
    else:
        hidden |= set(table.kitty_taken)
    for other in range(state.seat_count):
        if other != seat:
            hidden |= set(table.hands[other]) | set(table.passes[other] or ())
    for perspective, visible in ((Perspective(seat=seat), known | played), (PUBLIC, played)):
        served = served_json(aggregate, perspective, recorded)
        for token in card_tokens(hidden - visible):
            assert token not in served, f"{token!r} leaked to {perspective} ({table.phase})"


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_cancellation_hearts_matches(chunk: int) -> None:
    for index in range(-(-matches() // CHUNKS)):
        seed = chunk * 1_000_000 + index
        rng = random.Random(seed)
        seats = rng.randint(6, 11)
        options: dict[str, Any] = {
            "moon": rng.choice(["choose", "subtract", "add"]),
            "moon_points": rng.choice([26, 13, 40]),
        }
        if index % 12:  # every twelfth match plays to the default 150, the others to 50
            options["target"] = 50
        leave_rate = rng.choice([0.0, 0.0, 0.002])
        try:
            result = play(
                VARIANT,
                seats,
                options,
                rng,
                leave_rate=leave_rate,
                check_step=check_no_leak,
                # Every other match as a generic client plays: listed commands only, never a
                # form's other passes (the others draw from every pass).
                listed_only=index % 2 == 0,
            )
            check_match(result, seats, options)
        except AssertionError as error:
            raise AssertionError(f"random match seed {seed}: {error}") from error


def rigged_moon(rng: random.Random, seats: int) -> tuple[HandDealt, PassesDelivered]:
    """A deal where seat 1 (left of the dealer) holds the only clubs and every point card is
    with the others or in the kitty: whatever anybody plays, seat 1 shoots the moon."""
    point_cards = [r + "H" for r in RANKS for _ in range(2)] + ["QS", "QS"]
    rng.shuffle(point_cards)
    kitty = point_cards[: rng.randint(0, 3)]
    in_hands = point_cards[len(kitty) :]
    tricks = max(-(-len(in_hands) // (seats - 1)), rng.randint(3, 6))
    fillers = [r + s for r in RANKS for s in "SD" if r + s != "QS"] * 2
    pool = in_hands + rng.sample(fillers, (seats - 1) * tricks - len(in_hands))
    rng.shuffle(pool)
    hands: list[tuple[str, ...]] = []
    for seat in range(seats):
        if seat == 1:
            hands.append(tuple(rng.sample([r + "C" for r in RANKS], tricks)))
        else:
            hands.append(tuple(pool.pop() for _ in range(tricks)))
    deal = HandDealt(
        hand=1,
        dealer=0,
        hands=tuple(Secret(owner=s, value=h) for s, h in enumerate(hands)),
        rest=Secret(owner=None, value=tuple(kitty)),
    )
    nothing = tuple(Secret(owner=s, value=()) for s in range(seats))
    delivered = PassesDelivered(hand=1, direction="left", senders=(None,) * seats, received=nothing)
    return deal, delivered


@pytest.mark.parametrize("moon", ["choose", "subtract", "add"])
def test_random_plays_of_a_rigged_moon(moon: str) -> None:
    for seed in range(20):
        rng = random.Random(seed)
        seats = rng.randint(6, 11)
        moon_points = rng.choice([26, 13, 40])
        options = {"moon": moon, "moon_points": moon_points, "target": 500}
        events = [*created(VARIANT, seats, options), GameStarted(seat_count=seats)]
        state = given([*events, *rigged_moon(rng, seats)])
        scored: list[PenaltiesScored] = []
        version = len(events) + 2
        while not scored:
            seat = rng.choice(state.rules.to_act(state.table))
            command = pick(state.rules.legal_moves(state.table, seat), rng)
            new = game.act(
                state, player_id=player(seat), command=command, now=START, version=version
            )
            version += len(new)
            state = game_state.fold(state, new)
            scored += [event for event in new if isinstance(event, PenaltiesScored)]
        (points,) = scored
        assert points.moon == 1 and points.taken[1] == 52, f"seed {seed}"
        if moon != "choose":
            assert points.moon_choice == moon
        if points.moon_choice == "subtract":
            assert points.points == tuple(-moon_points if s == 1 else 0 for s in range(seats))
        else:
            assert points.points == tuple(0 if s == 1 else moon_points for s in range(seats))


def test_a_full_eleven_player_match_to_150() -> None:
    """The rule engine alone plays a whole 11-player match to the default target.
    Its speed is measured by `make bench`, not asserted here."""
    rules = CancellationHearts()
    table = play_rules_only("cancellation-hearts", 11, 11, {})
    assert max(rules.scores(table)) >= 150
    assert len(rules.score_rows(table)) > 5
