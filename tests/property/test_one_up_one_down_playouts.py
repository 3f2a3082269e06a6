"""At least 1,000 random legal One Up One Down games (seeded; the failing seed is in the message).

Besides the harness's random commands, the server sometimes closes a challenge window at its
deadline, so expiry is played and replayed too.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import msgspec
import pytest

from domain.cards import CLIMBING_ORDER, rank, standard_deck
from domain.events import CardPlayed, GameFinished, HandDealt, PlayerLeft
from domain.perspective import PUBLIC, Perspective, redact
from domain.variants.one_up_one_down.messages import (
    CardDrawn,
    CardPlayedFaceDown,
    Challenged,
    ChallengeDeclined,
    ChallengeResolved,
    ChallengeWindowClosed,
    ChallengeWindowExpired,
    LastCardStood,
    PileCollected,
    StalemateEnded,
)
from projections.views import view
from tests.property.playouts import card_tokens, games_per_test, play, replayed

CHUNKS = 4
DECK = frozenset(standard_deck())
SORTED_DECK = sorted(DECK)
# Every JSON string token that is a card code (the same tokens as playouts.card_tokens).
CARD_TOKEN = re.compile(rb'"((?:[2-9]|10|[JQKA])[SHDC])"')


def leaked(served: bytes, forbidden: set[str]) -> set[str]:
    found = {match.decode() for match in CARD_TOKEN.findall(served)} & forbidden
    assert all(token in served for token in card_tokens(found))
    return found


class Witness:
    """Follows the game step by step as each perspective may know it, and checks what it is served.

    A perspective knows a card once it was dealt to it, drawn by it, played face up, turned up by a
    challenge, played face down by it, or collected by it. No other card's code may appear in its
    view or in any event as redacted for it.
    """

    def __init__(self, seats: int, expire_rate: float) -> None:
        self.perspectives: list[int | None] = [None, *range(seats)]
        self.known: dict[int | None, set[str]] = {p: set() for p in self.perspectives}
        self.seen = 0
        self.expire_rate = expire_rate
        self.expired = 0

    def learn(self, payload: Any) -> None:
        public: set[str] = set()
        private: dict[int, set[str]] = {}
        match payload:
            case HandDealt():
                private = {s: set(secret.value) for s, secret in enumerate(payload.hands)}
            case CardPlayed():
                public = {payload.card}
            case CardPlayedFaceDown() | CardDrawn():
                private = {payload.seat: {payload.card.value}}
            case ChallengeResolved():
                public = {payload.card}
            case PileCollected():
                public = set(payload.shown)
                private = {payload.seat: set(payload.hidden.value)}
        for perspective, cards in self.known.items():
            cards |= public
            if perspective is not None:
                cards |= private.get(perspective, set())

    def forbidden(self, perspective: int | None) -> set[str]:
        return set(DECK - self.known[perspective])

    def __call__(self, aggregate: Any, rng: random.Random) -> None:
        state = aggregate.state
        if state.status == "active" and rng.random() < self.expire_rate:
            deadline = state.rules.deadline(state.table)
            if deadline is not None:
                # Stamped at the deadline itself: the server noticed exactly when it passed.
                aggregate.expire(command_id=f"x{self.expired}", now=deadline)
                self.expired += 1
        new = [r.payload for r in aggregate.pending_events[self.seen :]]
        self.seen = len(aggregate.pending_events)
        for payload in new:
            self.learn(payload)
        for perspective in self.perspectives:
            viewer = PUBLIC if perspective is None else Perspective(seat=perspective)
            served = msgspec.json.encode([redact(p, viewer) for p in new])
            found = leaked(served, self.forbidden(perspective))
            assert not found, f"{found} leaked to {perspective} in an event"
        self.check_view(aggregate, rng.choice(self.perspectives))
        check_conservation(aggregate.state.table)

    def check_view(self, aggregate: Any, perspective: int | None) -> None:
        viewer = PUBLIC if perspective is None else Perspective(seat=perspective)
        state = aggregate.state
        current = view(
            state, version=aggregate.version, chain_head=aggregate.chain_head, perspective=viewer
        )
        found = leaked(msgspec.json.encode(current), self.forbidden(perspective))
        assert not found, f"{found} leaked to {perspective} in the view"
        for shown, card in zip(current.table.pile, state.table.pile, strict=True):
            secret = card.face_down and not card.revealed and card.seat != perspective
            assert shown.card == (None if secret else card.card)


def check_conservation(table: Any) -> None:
    cards = [c for hand in table.hands for c in hand]
    cards += [c.card for c in table.pile] + list(table.stock)
    assert sorted(cards) == SORTED_DECK, "cards are not conserved"


def order(card_rank: str) -> int:
    return CLIMBING_ORDER.index(card_rank)


class Referee:
    """Re-checks the rules from the full event log, independently of the variant's table."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.left: set[int] = set()
        self.target = "3"
        self.face_down_next = False
        self.pile: list[str] = []
        self.stock: list[str] = []
        self.face_down: tuple[int, str, str, str] | None = None  # seat, card, declared, target
        self.answers: dict[int, bool] = {}
        self.plays = 0

    def check(self, payloads: list[Any], max_plays: int) -> None:
        for payload in payloads:
            self.step(payload)
        assert self.plays <= max_plays

    def step(self, payload: Any) -> None:
        match payload:
            case HandDealt():
                self.stock = list(payload.rest.value)
                assert all(len(secret.value) == 7 for secret in payload.hands)
            case CardPlayed():
                assert not self.face_down_next and self.face_down is None
                self.pile.append(payload.card)
                self.below = order(rank(payload.card)) < order(self.target)
                self.target = rank(payload.card)
                self.face_down_next = True
                self.plays += 1
            case CardDrawn():
                assert self.below, "a draw after a card that was not below the target"
                assert payload.card.value == self.stock.pop(0)
            case CardPlayedFaceDown():
                assert self.face_down_next and self.face_down is None
                assert payload.target == self.target
                self.pile.append(payload.card.value)
                self.face_down = (payload.seat, payload.card.value, payload.declared, self.target)
                self.answers = {}
                self.plays += 1
            case Challenged() | ChallengeDeclined():
                assert self.face_down is not None and payload.seat != self.face_down[0]
                assert payload.seat not in self.answers
                self.answers[payload.seat] = isinstance(payload, Challenged)
            case ChallengeWindowExpired():
                for seat in payload.unanswered:
                    self.answers[seat] = False
            case ChallengeWindowClosed():
                assert self.face_down is not None
                if payload.seat not in self.left:
                    assert not any(self.answers_in_order()), "a challenge was ignored"
                self.target = payload.declared
                self.face_down_next = False
                self.face_down = None
            case ChallengeResolved():
                assert self.face_down is not None
                seat, card, declared, target = self.face_down
                assert (payload.seat, payload.card, payload.declared) == (seat, card, declared)
                assert payload.target == target
                lie = rank(card) != declared or order(rank(card)) < order(target)
                assert payload.succeeded == lie
                # Priority: everybody before the challenger in turn order has declined.
                answers = self.answers_in_order()
                assert answers.index(True) == self.order_after(seat).index(payload.challenger)
                self.resolved = payload
            case PileCollected():
                resolved = self.resolved
                taker = resolved.seat if resolved.succeeded else resolved.challenger
                assert payload.seat == taker
                assert Counter([*payload.shown, *payload.hidden.value]) == Counter(self.pile)
                self.pile = []
                self.target = "3"
                self.face_down_next = False
                self.face_down = None
            case PlayerLeft():
                self.left.add(payload.seat)

    def order_after(self, seat: int) -> list[int]:
        return [
            (seat + step) % self.seats
            for step in range(1, self.seats)
            if (seat + step) % self.seats not in self.left
        ]

    def answers_in_order(self) -> list[bool]:
        """Answers of the seats still in, in turn order after the player, up to the first gap."""
        assert self.face_down is not None
        answers = []
        for seat in self.order_after(self.face_down[0]):
            if seat not in self.answers:
                break
            answers.append(self.answers[seat])
        return answers


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_one_up_one_down_games(chunk: int) -> None:
    for index in range(games_per_test() // CHUNKS):
        seed = chunk * 1_000_000 + index
        rng = random.Random(seed)
        seats = rng.randint(2, 4)
        options = {
            "challenge_seconds": rng.choice([15, 15, 0]),
            # Mostly short caps keep 1,000 games fast; some run to the default cap of 300.
            "max_plays": 300 if rng.random() < 0.05 else rng.choice([8, 16, 30, 50]),
        }
        try:
            witness = Witness(seats, expire_rate=rng.choice([0.0, 0.1]))
            result = play(
                "one-up-one-down",
                seats,
                options,
                rng,
                leave_rate=rng.choice([0.0, 0.003]),
                check_step=witness,
                pause_rate=rng.choice([0.0, 0.05]),  # late answers: expired by the command
                listed_only=True,  # no choice forms: the listed commands are every command
            )
            check_game(result, seats, options["max_plays"])
        except AssertionError as error:
            raise AssertionError(f"random game seed {seed}: {error}") from error


def check_game(result: Any, seats: int, max_plays: int) -> None:
    aggregate = result.aggregate
    state = aggregate.state
    assert state.status == "finished", "a random game did not end"
    payloads = [r.payload for r in result.recorded]
    Referee(seats).check(payloads, max_plays)

    table = state.table
    check_conservation(table)
    finished = payloads[-1]
    assert isinstance(finished, GameFinished)
    ending = payloads[-2]
    still_in = [s for s in range(seats) if not state.seats[s].left]
    if len(still_in) < 2:  # a forfeit, straight after the last leave: no points invented
        assert isinstance(ending, PlayerLeft)
        assert (finished.winners, finished.reason) == (tuple(still_in), "forfeit")
        assert finished.scores == (0,) * seats
        return
    if isinstance(ending, LastCardStood):
        assert finished.winners == (ending.seat,)
        assert table.hands[ending.seat] == ()
    else:
        assert isinstance(ending, StalemateEnded)
        sizes = [len(hand) for hand in table.hands]
        assert ending.hand_sizes == tuple(sizes)
        fewest = min(sizes[s] for s in still_in)
        assert finished.winners == tuple(s for s in still_in if sizes[s] == fewest)
        if ending.reason == "cap":
            assert table.plays == max_plays
        if ending.reason == "vote":
            assert not table.stock
    assert finished.scores == tuple(int(s in finished.winners) for s in range(seats))

    # Replay of the stored events reproduces the live state and chain.
    again = replayed(result.recorded)
    assert again.state == state
    assert (again.version, again.chain_head) == (aggregate.version, aggregate.chain_head)
