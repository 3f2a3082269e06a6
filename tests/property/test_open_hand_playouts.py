"""At least 1,000 random legal Open Hand games (seeded; the failing seed is in the message)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from domain.cards import standard_deck
from domain.events import CardPlayed, HandDealt, TrickWon
from domain.perspective import FULL, PUBLIC, Perspective
from domain.variants.open_hand.messages import FirstLeaderChosen
from domain.variants.open_hand.rules import strength
from tests.property.playouts import card_tokens, games_per_test, play, replayed, served_json

CHUNKS = 4


def hidden_from(aggregate, seat: int | None) -> set[str]:
    """Cards this perspective must not see now: other hands and the undealt rest."""
    table = aggregate.state.table
    hidden = {card for other, hand in enumerate(table.hands) if other != seat for card in hand}
    dealt = next(r.payload for r in aggregate.pending_events if isinstance(r.payload, HandDealt))
    return hidden | (set(dealt.rest.value) - set(table.draws))


def check_no_leak(aggregate, rng: random.Random) -> None:
    if aggregate.state.over:
        return
    seat = rng.choice([None, *range(aggregate.state.seat_count)])
    perspective = PUBLIC if seat is None else Perspective(seat=seat)
    served = served_json(aggregate, perspective, aggregate.pending_events)
    for token in card_tokens(hidden_from(aggregate, seat)):
        assert token not in served, f"{token!r} leaked to seat {seat}"


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_open_hand_games(chunk: int) -> None:
    for index in range(games_per_test() // CHUNKS):
        seed = chunk * 1_000_000 + index
        rng = random.Random(seed)
        seats = rng.randint(2, 8)
        options = {
            "first_leader": rng.choice(["cutter", "high_card"]),
            "tiebreak": rng.choice(["shared", "playoff"]),
        }
        try:
            result = play(
                "open-hand",
                seats,
                options,
                rng,
                leave_rate=0.02,
                check_step=check_no_leak,
                listed_only=True,  # no choice forms: the listed commands are every command
            )
            check_game(result, seats)
        except AssertionError as error:
            raise AssertionError(f"random game seed {seed}: {error}") from error


def check_game(result, seats: int) -> None:
    state = result.aggregate.state
    assert state.status == "finished"
    payloads = [r.payload for r in result.recorded]

    # Conservation: every card of the deck is in exactly one place.
    dealt = next(p for p in payloads if isinstance(p, HandDealt))
    played = [p.card for p in payloads if isinstance(p, CardPlayed)]
    in_hands = [card for hand in state.table.hands for card in hand]
    assert Counter(played + in_hands + list(dealt.rest.value)) == Counter(standard_deck())
    assert all(len(secret.value) == 5 for secret in dealt.hands)

    # Each trick has exactly one winner, the strongest card played in it.
    trick: list[CardPlayed] = []
    tricks = 0
    for payload in payloads:
        if isinstance(payload, CardPlayed):
            trick.append(payload)
        elif isinstance(payload, TrickWon):
            tricks += 1
            assert payload.seat == max(trick, key=lambda p: strength(p.card)).seat
            assert payload.cards == tuple(p.card for p in trick)
            trick = []
    forfeit = state.outcome.reason == "forfeit"
    assert not trick or forfeit, "a trick was left without a winner"  # a forfeit ends at once
    assert tricks <= 5
    assert sum(state.table.points) == tricks

    leader = next(p for p in payloads if isinstance(p, FirstLeaderChosen))
    if leader.method == "cutter":
        assert leader.seat == seats - 1

    points = state.table.points
    seated = tuple(s for s in range(seats) if not state.seats[s].left)
    if len(seated) >= 2:
        best = max(points[s] for s in seated)
        assert state.outcome.winners == tuple(s for s in seated if points[s] == best)
    else:  # a forfeit: the seat left wins whatever the points
        assert (state.outcome.winners, state.outcome.reason) == (seated, "forfeit")

    # Replay of the stored events reproduces the live state and chain.
    again = replayed(result.recorded)
    assert again.state == state
    assert (again.version, again.chain_head) == (
        result.aggregate.version,
        result.aggregate.chain_head,
    )

    # Once over, everything may be seen; before, the final view hides nothing it should not.
    assert served_json(result.aggregate, FULL, result.recorded)
