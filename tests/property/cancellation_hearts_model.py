"""An independent model of Cancellation Hearts, rebuilt from a match's events alone, and the checks
of a finished match against it (tests/property/test_cancellation_hearts_playouts.py)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from domain.cards import RANKS, double_deck
from domain.events import CardPlayed, GameFinished, HandDealt, PlayerLeft
from domain.perspective import FULL
from domain.variants.cancellation_hearts.messages import (
    CancellationHeartsOptions,
    CardsPassed,
    MoonShot,
    PassesDelivered,
    PenaltiesScored,
    TrickResolved,
)
from tests.property.playouts import replayed, served_json

DECK = Counter(double_deck())


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
