"""At least 1,000 random legal Heartbeat games (seeded; the failing seed is in the message).

Pressure deadlines are applied by calling expire between moves: always once the harness's next
move would come too late, and sometimes earlier, at a random moment of the round.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest

from domain.cards import JOKERS, rank, standard_deck
from domain.events import GameCreated, HandDealt, SeatTaken
from domain.fairness import RandomStream
from domain.perspective import FULL, PUBLIC, Perspective
from domain.variants.heartbeat.messages import (
    CardChosen,
    CardShown,
    ChoicesRevealed,
    ChoiceTimedOut,
    RoundScored,
    TempoCardFlipped,
    TempoDeckShuffled,
)
from tests.property.playouts import (
    START,
    card_tokens,
    games_per_test,
    play,
    replayed,
    served_json,
)

CHUNKS = 4
EARLY_EXPIRY_RATE = 0.15
WATCHER_RATE = 0.5  # otherwise the next command finds the deadline passed and expires it itself
VALUES = {"A": 1, "J": 10, "Q": 10, "K": 10}


def value(card: str) -> int:
    return 0 if card in JOKERS else VALUES.get(rank(card)) or int(rank(card))


def payloads_of(aggregate: Any) -> list[Any]:
    return [recorded.payload for recorded in aggregate.pending_events]


def chosen_cards(payloads: list[Any]) -> list[tuple[int, int, str]]:
    """(round, seat, card) of every choice so far, made or picked at a timeout."""
    chosen = []
    for payload in payloads:
        if isinstance(payload, CardChosen):
            chosen.append((payload.round, payload.seat, payload.card.unwrap()))
        elif isinstance(payload, ChoiceTimedOut):
            for seat, secret in zip(payload.seats, payload.cards, strict=True):
                chosen.append((payload.round, seat, secret.unwrap()))
    return chosen


def hidden_from(aggregate: Any, seat: int | None) -> set[str]:
    """Cards this perspective must not see now: other hands, other seats' choices not revealed
    (pending, or void because the chooser left), rank-only reveals and the undealt rest."""
    table = aggregate.state.table
    payloads = payloads_of(aggregate)
    revealed = {play.card for p in payloads if isinstance(p, ChoicesRevealed) for play in p.plays}
    hidden = {card for other, hand in enumerate(table.hands) if other != seat for card in hand}
    hidden |= {card for _, s, card in chosen_cards(payloads) if s != seat} - revealed
    dealt = next(p for p in payloads if isinstance(p, HandDealt))
    hidden |= set(dealt.rest.unwrap())
    if table.options.reveal_shows == "card":
        hidden -= {p.card for p in payloads if isinstance(p, CardShown)}
    return hidden


def check_no_leak(aggregate: Any, rng: random.Random) -> None:
    """Nothing served to two random perspectives (seats or spectator) names a hidden card."""
    if aggregate.state.over:
        return
    for seat in rng.sample([None, *range(aggregate.state.seat_count)], 2):
        perspective = PUBLIC if seat is None else Perspective(seat=seat)
        served = served_json(aggregate, perspective, aggregate.pending_events)
        for token in card_tokens(hidden_from(aggregate, seat)):
            assert token not in served, f"{token!r} leaked to seat {seat}"


def stepper() -> Any:
    """check_step for the harness: applies due (or randomly, early) expiries, checks for leaks.

    The harness moves at START + n seconds for its n-th move. A deadline not later than the next
    move is applied here half the time (the watcher noticed first); otherwise the next command
    applies it in its own batch (RULES.md, Timers): both must record the same expiry.
    """
    moves = 0

    def step(aggregate: Any, rng: random.Random) -> None:
        nonlocal moves
        moves += 1
        check_no_leak(aggregate, rng)
        state = aggregate.state
        if state.status != "active":
            return
        deadline = state.rules.deadline(state.table)
        upcoming = START + timedelta(seconds=moves + 1)
        due = upcoming >= deadline if deadline is not None else False
        watched = due and rng.random() < WATCHER_RATE
        if deadline is not None and (watched or rng.random() < EARLY_EXPIRY_RATE):
            applied = aggregate.expire(command_id=f"expire-{moves}", now=max(deadline, upcoming))
            assert applied and isinstance(applied[0].payload, ChoiceTimedOut)
            check_no_leak(aggregate, rng)

    return step


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_heartbeat_games(chunk: int) -> None:
    for index in range(games_per_test() // CHUNKS):
        seed = chunk * 1_000_000 + index
        rng = random.Random(seed)
        seats = rng.randint(2, 6)
        options = {
            "jokers": rng.choice(["zero", "removed"]),
            "tempo_deck": rng.choice([12, 8, 0]),
            "reveal_shows": rng.choice(["card", "rank"]),
            "pressure_seconds": rng.choice([5, 10]),
            "double_rule": rng.choice(["winner_only", "others_one"]),
        }
        try:
            result = play(
                "heartbeat",
                seats,
                options,
                rng,
                leave_rate=0.02,
                check_step=stepper(),
                listed_only=True,  # no choice forms: the listed commands are every command
            )
            check_game(result, options)
        except AssertionError as error:
            raise AssertionError(f"random game seed {seed}: {error}") from error


def expected_chips(
    plays: tuple[Any, ...], tempo: str | None, options: dict[str, Any], seats: int
) -> tuple[tuple[int, ...], list[int]]:
    """Winners and chips of a round, straight from RULES.md §1."""
    values = {play.seat: value(play.card) for play in plays}
    best = min(values.values()) if tempo == "reverse" else max(values.values())
    winners = tuple(sorted(seat for seat, v in values.items() if v == best))
    chips = [0] * seats
    for seat in values:
        if seat in winners:
            chips[seat] = 2 if tempo == "double" else 1
        elif tempo == "double" and options["double_rule"] == "others_one":
            chips[seat] = 1
    return winners, chips


def check_game(result: Any, options: dict[str, Any]) -> None:
    state = result.aggregate.state
    assert state.status == "finished"
    seats = state.seat_count
    recorded = result.recorded
    payloads = [r.payload for r in recorded]

    # Cards: the deal uses the deck the options give; every dealt card is in exactly one place.
    dealt = next(p for p in payloads if isinstance(p, HandDealt))
    hands = [secret.unwrap() for secret in dealt.hands]
    assert all(len(hand) == 5 for hand in hands)
    deck = standard_deck(jokers=options["jokers"] == "zero")
    assert Counter([c for hand in hands for c in hand] + list(dealt.rest.unwrap())) == Counter(deck)
    chosen = chosen_cards(payloads)
    used = [card for hand in state.table.hands for card in hand] + [c for _, _, c in chosen]
    assert Counter(used) == Counter(c for hand in hands for c in hand)
    assert all(card in hands[seat] for _, seat, card in chosen)
    assert len({(r, s) for r, s, _ in chosen}) == len(chosen), "two choices in one round"

    # Tempo: the flips follow the shuffled deck, one per round, public, with the right deadline.
    shuffled = [p for p in payloads if isinstance(p, TempoDeckShuffled)]
    flips = [(r, r.payload) for r in recorded if isinstance(r.payload, TempoCardFlipped)]
    rounds = [p for p in payloads if isinstance(p, RoundScored)]
    if options["tempo_deck"] == 0:
        assert not shuffled and not flips
    else:
        order = shuffled[0].cards.unwrap()
        kinds = ("pressure", "reveal", "reverse", "double")
        assert Counter(order) == dict.fromkeys(kinds, options["tempo_deck"] // 4)
        assert [flip.tempo for _, flip in flips] == list(order[: len(flips)])
        assert [flip.round for _, flip in flips] == list(range(1, len(flips) + 1))
        assert len(flips) in (len(rounds), len(rounds) + 1)
        for envelope, flip in flips:
            seconds = options["pressure_seconds"] if flip.tempo == "pressure" else None
            expected = envelope.timestamp + timedelta(seconds=seconds) if seconds else None
            assert flip.deadline == expected
    tempo_of = {flip.round: flip.tempo for _, flip in flips}
    deadline_of = {flip.round: flip.deadline for _, flip in flips}

    # No choice at or after a deadline; a revealed card is never chosen in its own round.
    for envelope in recorded:
        payload = envelope.payload
        if isinstance(payload, CardChosen) and deadline_of.get(payload.round) is not None:
            assert envelope.timestamp < deadline_of[payload.round]
    shown = {(p.round, p.seat): p for p in payloads if isinstance(p, CardShown)}
    for (round_, seat), reveal in shown.items():
        card = reveal.card if reveal.card is not None else reveal.sealed.unwrap()
        assert (round_, seat, card) not in chosen
        assert tempo_of.get(round_) == "reveal"

    # Timeout picks come from the stream under a per-round label, whenever expiry ran.
    check_timeout_picks(payloads, hands)

    # Chips: each round scored by the rules; the totals are the final scores.
    revealed = [p for p in payloads if isinstance(p, ChoicesRevealed)]
    assert (
        [p.round for p in revealed] == [p.round for p in rounds] == list(range(1, len(rounds) + 1))
    )
    totals = [0] * seats
    for shown_round, scored in zip(revealed, rounds, strict=True):
        tempo = tempo_of.get(scored.round)
        winners, chips = expected_chips(shown_round.plays, tempo, options, seats)
        assert (scored.tempo, scored.winners, list(scored.chips)) == (tempo, winners, chips)
        prize = 2 if tempo == "double" else 1
        consolation = 1 if tempo == "double" and options["double_rule"] == "others_one" else 0
        losers = len(shown_round.plays) - len(winners)
        assert sum(chips) == prize * len(winners) + consolation * losers
        totals = [a + b for a, b in zip(totals, chips, strict=True)]
    assert state.outcome is not None
    assert list(state.outcome.scores) == totals
    seated = tuple(s for s in range(seats) if not state.seats[s].left)
    if len(seated) >= 2:
        best = max(totals[s] for s in seated)
        assert state.outcome.winners == tuple(s for s in seated if totals[s] == best)
        assert len(rounds) == 3
    else:  # a forfeit: the seat left wins whatever the chips
        assert (state.outcome.winners, state.outcome.reason) == (seated, "forfeit")
    assert [row.points for row in state.rules.score_rows(state.table)] == [r.chips for r in rounds]

    # Replay of the stored events reproduces the live state and chain.
    again = replayed(recorded)
    assert again.state == state
    assert (again.version, again.chain_head) == (
        result.aggregate.version,
        result.aggregate.chain_head,
    )
    assert served_json(result.aggregate, FULL, recorded)


def check_timeout_picks(payloads: list[Any], hands: list[tuple[str, ...]]) -> None:
    created = next(p for p in payloads if isinstance(p, GameCreated))
    client_seeds = [p.client_seed for p in payloads if isinstance(p, SeatTaken)]
    stream = RandomStream(bytes.fromhex(created.seed.unwrap()), created.game_id, client_seeds)
    gone: list[set[str]] = [set() for _ in hands]
    for payload in payloads:
        if isinstance(payload, CardChosen):
            gone[payload.seat].add(payload.card.unwrap())
        elif isinstance(payload, ChoiceTimedOut):
            for seat, secret in zip(payload.seats, payload.cards, strict=True):
                playable = [card for card in hands[seat] if card not in gone[seat]]
                label = f"timeout/round/{payload.round}/seat/{seat}"
                assert secret.unwrap() == stream.choice(label, playable)
                gone[seat].add(secret.unwrap())
