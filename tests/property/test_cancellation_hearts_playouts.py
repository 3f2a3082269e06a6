"""At least 300 random full Cancellation Hearts matches (seeded; a failure names its seed).

Each match is re-checked from its events by an independent model of the rules: the deal and the
conservation of all 104 cards every hand, the passes, every trick's cancellations and winner, the
kitty, the scores and the moon, the totals, the outcome. Replay must equal the live game, and
at sampled moments no seat is served a card it may not know (passes above all).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
import pytest

from domain import game, game_state
from domain.cards import RANKS, double_deck
from domain.choices import pick
from domain.events import (
    CardPlayed,
    GameFinished,
    GameStarted,
    HandDealt,
    PlayerLeft,
    Secret,
)
from domain.perspective import FULL, PUBLIC, Perspective
from domain.variants.cancellation_hearts import CancellationHearts
from domain.variants.cancellation_hearts.messages import (
    CancellationHeartsOptions,
    CardsPassed,
    MoonShot,
    PassesDelivered,
    PenaltiesScored,
    TrickResolved,
)
from service.tools.bench.engine import play_rules_only
from tests.property.playouts import (
    START,
    card_tokens,
    games_per_test,
    play,
    replayed,
    served_json,
)
from tests.rules.scenario import created, given, player

VARIANT = "cancellation-hearts"
CHUNKS = 4
DECK = Counter(double_deck())


def matches() -> int:
    """300 matches at the default CARDLEDGER_PLAYOUTS of 1000; fewer for a quick run."""
    return max(CHUNKS, games_per_test() * 3 // 10)


def score(cards: list[str] | tuple[str, ...]) -> int:
    return sum(13 if card == "QS" else int(card.endswith("H")) for card in cards)


def expected_winner(cards: tuple[str, ...]) -> int | None:
    """An independent reading of the cancellation rule."""
    led = cards[0][-1]
    alone = [c for c in cards if c[-1] == led and cards.count(c) == 1]
    if not alone:
        return None
    best = max(alone, key=lambda card: RANKS.index(card[:-1]))
    return cards.index(best)


# --- leak check, at sampled steps ---------------------------------------------------------------


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


# --- the independent model ----------------------------------------------------------------------


class Model:
    """Cards per place, rebuilt from the events alone."""

    def __init__(self, seats: int, options: CancellationHeartsOptions) -> None:
        self.seats = seats
        self.options = options
        self.left = [False] * seats
        self.totals = [0] * seats
        self.rows: list[tuple[int, ...]] = []
        self.hand = 0

    def dealt(self, event: HandDealt) -> None:
        seated = [s for s in range(self.seats) if not self.left[s]]
        self.hand += 1
        assert event.hand == self.hand
        assert event.dealer == (event.hand - 1) % self.seats
        self.hands = [list(secret.unwrap()) for secret in event.hands]
        self.kitty = list(event.rest.unwrap())
        each = 104 // len(seated)
        assert [len(h) for h in self.hands] == [
            0 if self.left[s] else each for s in range(self.seats)
        ]
        assert len(self.kitty) == 104 % len(seated)
        assert Counter(c for h in self.hands for c in h) + Counter(self.kitty) == DECK
        self.passes: dict[int, tuple[str, ...]] = {}
        self.passing = True
        self.trick: list[str] = []
        self.carry: list[str] = []
        self.collected: list[list[str]] = [[] for _ in range(self.seats)]
        self.discarded: list[str] = []
        self.kitty_taker: int | None = None
        self.tricks = 0
        self.moon_pending = False

    def passed(self, event: CardsPassed) -> None:
        assert self.passing and event.hand == self.hand and event.seat not in self.passes
        cards = event.cards.unwrap()
        assert len(cards) == 3
        for card in cards:
            self.hands[event.seat].remove(card)
        self.passes[event.seat] = cards

    def delivered(self, event: PassesDelivered) -> None:
        assert self.passing
        assert event.direction == ("left" if self.hand % 2 else "right")
        step = 1 if event.direction == "left" else -1
        seated = [s for s in range(self.seats) if not self.left[s]]
        assert sorted(self.passes) == seated, "delivery before every seated pass"
        for seat in range(self.seats):
            got = event.received[seat]
            assert got.owner == seat
            sender = event.senders[seat]
            if self.left[seat]:
                assert sender is None and got.unwrap() == ()
                continue
            expected = next(
                (seat - step * k) % self.seats
                for k in range(1, self.seats)
                if not self.left[(seat - step * k) % self.seats]
            )
            assert sender == expected
            assert got.unwrap() == self.passes[sender]
            self.hands[seat] += list(got.unwrap())
        self.passing = False

    def player_left(self, seat: int) -> None:
        self.left[seat] = True
        if self.hand and self.passing and seat in self.passes:
            self.hands[seat] += list(self.passes.pop(seat))

    def played(self, event: CardPlayed) -> None:
        assert not self.passing and not self.moon_pending
        self.hands[event.seat].remove(event.card)
        self.trick.append(event.card)

    def resolved(self, event: TrickResolved) -> None:
        cards = tuple(self.trick)
        assert event.cards == cards and event.trick == self.tricks + 1
        self.tricks += 1
        index = expected_winner(cards)
        assert event.cancelled == tuple(dict.fromkeys(c for c in cards if cards.count(c) > 1))
        pile = [*self.carry, *cards]
        self.trick = []
        last = not any(self.hands[s] for s in range(self.seats) if not self.left[s])
        assert event.last == last
        if index is None:
            assert event.winner is None and event.kitty is None and event.collected == ()
            if last:
                assert event.discarded == tuple(pile) and event.carried == ()
                self.discarded += pile
                self.carry = []
            else:
                assert event.carried == tuple(pile) and event.discarded == ()
                self.carry = pile
            return
        winner = event.winner
        assert winner is not None
        assert event.collected == tuple(pile) and event.points == score(pile)
        self.collected[winner] += pile
        self.carry = []
        if self.kitty_taker is None and self.kitty:
            assert event.kitty is not None and event.kitty.owner == winner
            assert list(event.kitty.unwrap()) == self.kitty
            self.kitty_taker = winner
        else:
            assert event.kitty is None

    def conserved(self) -> None:
        places = Counter(c for h in self.hands for c in h) + Counter(self.kitty)
        places += Counter(c for pile in self.collected for c in pile)
        places += Counter(self.discarded) + Counter(self.carry) + Counter(self.trick)
        if self.passing:
            places += Counter(c for cards in self.passes.values() for c in cards)
        assert places == DECK, "the 104 cards are not all accounted for"

    def taken(self) -> list[int]:
        taken = [score(pile) for pile in self.collected]
        if self.kitty_taker is not None:
            taken[self.kitty_taker] += score(self.kitty)
        return taken

    def scored(self, event: PenaltiesScored) -> None:
        assert not self.trick and not self.carry
        self.conserved()
        taken = self.taken()
        assert list(event.taken) == taken
        shooter = next((s for s, t in enumerate(taken) if t == 52), None)
        assert event.moon == shooter
        if shooter is None:
            assert list(event.points) == taken and event.moon_choice is None
        else:
            assert sum(taken) == 52
            rule = self.options.moon
            if rule != "choose":
                assert event.moon_choice == rule
            moon = self.options.moon_points
            if event.moon_choice == "subtract":
                expected = [-moon if s == shooter else 0 for s in range(self.seats)]
            else:
                assert event.moon_choice == "add"
                expected = [0 if s == shooter else moon for s in range(self.seats)]
            assert list(event.points) == expected
        self.totals = [t + p for t, p in zip(self.totals, event.points, strict=True)]
        assert list(event.totals) == self.totals
        self.rows.append(event.points)
        self.moon_pending = False


def check_match(result: Any, seats: int, options: dict[str, Any]) -> None:
    state = result.aggregate.state
    assert state.status == "finished"
    opts = msgspec.convert(options, CancellationHeartsOptions)
    model = Model(seats, opts)
    payloads = [r.payload for r in result.recorded]
    for payload in payloads:
        match payload:
            case HandDealt():
                model.dealt(payload)
            case CardsPassed():
                model.passed(payload)
            case PassesDelivered():
                model.delivered(payload)
            case CardPlayed():
                model.played(payload)
            case TrickResolved():
                model.resolved(payload)
            case MoonShot():
                assert opts.moon == "choose"
                assert model.taken()[payload.seat] == 52
                model.moon_pending = True
            case PenaltiesScored():
                model.scored(payload)
            case PlayerLeft():
                model.player_left(payload.seat)
    model.conserved()  # also for a hand cut short when too few seats remain

    rules = state.rules
    totals = rules.scores(state.table)
    assert list(totals) == model.totals
    rows = [row.points for row in rules.score_rows(state.table)]
    assert rows == model.rows
    assert [sum(column) for column in zip(*rows, strict=True)] == list(totals) or not rows
    finished = payloads[-1]
    assert isinstance(finished, GameFinished)
    assert finished.scores == totals
    seated = tuple(s for s in range(seats) if not state.seats[s].left)
    if len(seated) >= 2:
        assert max(totals) >= opts.target
        best = min(totals[s] for s in seated)
        assert finished.winners == tuple(s for s in seated if totals[s] == best)
    else:  # a forfeit: the seat left, if any, wins whatever the totals
        assert (finished.winners, finished.reason) == (seated, "forfeit")

    again = replayed(result.recorded)
    assert again.state == state
    assert (again.version, again.chain_head) == (
        result.aggregate.version,
        result.aggregate.chain_head,
    )
    assert served_json(result.aggregate, FULL, result.recorded)


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
