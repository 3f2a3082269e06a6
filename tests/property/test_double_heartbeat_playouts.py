"""Random Double Heartbeat matches, each checked against an independent referee of its event log.

The referee re-derives the deals from the revealed seed, re-reads every play with the brute-force
classifier of the combinations test, re-checks who may beat whom, when tricks end, alliances,
finishing order and the score of every hand. Seeds are in the failure message.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from domain.cards import double_deck
from domain.events import (
    Event,
    GameCreated,
    GameFinished,
    HandDealt,
    PlayerLeft,
    SeatTaken,
    TrickWon,
)
from domain.fairness import RandomStream
from domain.perspective import FULL, PUBLIC, Perspective
from domain.variants.double_heartbeat.messages import (
    AllianceBroken,
    AllianceFormed,
    CardsBuried,
    CombinationPlayed,
    FirstDealerDrawn,
    HandSettled,
    LeadInherited,
    PlayerWentOut,
    TurnPassed,
)
from tests.property.playouts import card_tokens, games_per_test, play, replayed, served_json
from tests.rules.double_heartbeat.independent import LINE, SINGLES, brute_readings

CHUNKS = 4
DECK = Counter(double_deck())
CODES = set(DECK)
BOMB_BONUS = {4: 2, 5: 5, 6: 10, 7: 15, 8: 20}
SEQUENCES = {"straight", "straight_flush", "consecutive_pairs", "airplane", "airplane_pairs"}

Play = tuple[str, int, int]  # kind, card count, strength


def matches_per_chunk() -> int:
    """300 matches in all by default (CARDLEDGER_PLAYOUTS=1000); fewer for a quick run."""
    return max(1, games_per_test() * 3 // 10 // CHUNKS)


def strength(kind: str, label: str) -> int:
    if kind in SEQUENCES:
        return len(LINE) if label == "A" else LINE.index(label) + 1
    return SINGLES.index(label)


def is_bomb(play: Play) -> bool:
    return play[0] in ("bomb", "straight_flush")


def referee_beats(new: Play, old: Play) -> bool:
    if old[0] == "bomb" and old[1] == 8:
        return False
    if is_bomb(new) and is_bomb(old):
        # a straight flush ranks between five and six of a kind, longer then higher
        def power(p: Play) -> tuple[float, int, int]:
            return (5.5, p[1], p[2]) if p[0] == "straight_flush" else (float(p[1]), 0, p[2])

        return power(new) > power(old)
    if is_bomb(new) or is_bomb(old):
        return is_bomb(new)
    return new[:2] == old[:2] and new[2] > old[2]


def bonus_of(play: Play) -> int:
    if play[0] == "straight_flush":
        return 5
    return BOMB_BONUS[play[1]] if play[0] == "bomb" else 0


class Referee:
    """Re-plays a match's events by the rules as written, independently of the engine."""

    def __init__(self, payloads: list[Event], options: dict[str, Any]) -> None:
        self.payloads = payloads
        created = payloads[0]
        assert isinstance(created, GameCreated)
        self.n = created.seat_count
        self.options = options
        self.totals = [0] * self.n
        self.left: set[int] = set()
        self.hand_rows: list[list[int]] = []
        self.alliances = 0
        self.betrayals = 0
        self.inherited = 0
        self.bombs = 0

    def active(self, seat: int) -> bool:
        return seat not in self.left and bool(self.hands[seat])

    def next_active(self, seat: int) -> int:
        for step in range(1, self.n + 1):
            if self.active((seat + step) % self.n):
                return (seat + step) % self.n
        raise AssertionError("nobody holds cards")

    def check(self) -> None:
        seed = next(p.seed for p in self.payloads if isinstance(p, GameFinished))
        created = self.payloads[0]
        seats = [p.client_seed for p in self.payloads if isinstance(p, SeatTaken)]
        self.stream = RandomStream(bytes.fromhex(seed), created.game_id, seats)
        self.dealer: int | None = None
        for index, event in enumerate(self.payloads):
            self.following = self.payloads[index + 1 : index + 2]
            handler = getattr(self, "on_" + type(event).__name__, None)
            if handler is not None:
                handler(event)

    def on_FirstDealerDrawn(self, event: FirstDealerDrawn) -> None:  # noqa: N802
        assert event.seat == self.stream.choice("first-dealer", range(self.n))

    def on_HandDealt(self, event: HandDealt) -> None:  # noqa: N802
        if self.dealer is None:
            first = next(p for p in self.payloads if isinstance(p, FirstDealerDrawn))
            assert event.dealer == first.seat
        else:
            expected = next(
                (self.dealer + step) % self.n
                for step in range(1, self.n + 1)
                if (self.dealer + step) % self.n not in self.left
            )
            assert event.dealer == expected, "the deal rotates left"
        self.dealer = event.dealer
        self.hand_number = event.hand
        deck = self.stream.shuffle(f"deal/{event.hand}", double_deck())
        self.hands = [list(secret.value) for secret in event.hands]
        assert tuple(card for hand in self.hands for card in hand) == deck
        k = 104 % self.n
        sizes = [104 // self.n + (k if s == event.dealer else 0) for s in range(self.n)]
        assert [len(h) for h in self.hands] == sizes
        self.k = k
        self.allies: list[int | None] = [None] * self.n
        self.top: tuple[int, Play] | None = None
        self.trick_cards: list[str] = []
        self.passed: set[int] = set()
        self.out: list[int] = []
        self.buried: tuple[str, ...] = ()
        self.played: list[str] = []
        self.bonuses = [0] * self.n
        self.lead_fresh = False
        self.lead_kind = "opening"
        self.leader = event.dealer
        self.betraying = False

    def on_CardsBuried(self, event: CardsBuried) -> None:  # noqa: N802
        assert event.seat == self.dealer and not self.played and self.top is None
        assert event.count == len(event.cards.value) <= self.k
        self.buried = event.cards.value
        for card in self.buried:
            self.hands[event.seat].remove(card)

    def on_AllianceBroken(self, event: AllianceBroken) -> None:  # noqa: N802
        assert self.options["betrayal"] == "allowed"
        assert self.top is not None and self.top[0] == event.ally
        assert self.allies[event.by] == event.ally
        self.allies[event.by] = self.allies[event.ally] = None
        self.betraying = True
        self.betrayals += 1

    def on_CombinationPlayed(self, event: CombinationPlayed) -> None:  # noqa: N802
        seat = event.seat
        readings = brute_readings(list(event.cards))
        assert len(readings) == 1
        ((kind, count, label),) = readings
        assert (event.combination, event.rank) == (kind, label)
        new: Play = (kind, count, strength(kind, label))
        assert event.bonus == bonus_of(new)
        self.bombs += is_bomb(new)
        if self.top is None:
            assert seat == self.leader
            self.lead_fresh = True
        else:
            owner, old = self.top
            if self.betraying:
                assert is_bomb(new) and referee_beats(new, old)
            elif new == old:
                assert isinstance(self.following[0], AllianceFormed), "an equal play allies"
            else:
                assert self.allies[seat] != owner, "allies cannot beat each other"
                assert referee_beats(new, old), f"{new} does not beat {old}"
            self.lead_fresh = False
        self.betraying = False
        for card in event.cards:
            self.hands[seat].remove(card)
        self.top = (seat, new)
        self.trick_cards += event.cards
        self.played += event.cards
        self.passed = set()
        self.bonuses[seat] += event.bonus
        self.totals[seat] += event.bonus

    def on_AllianceFormed(self, event: AllianceFormed) -> None:  # noqa: N802
        assert self.lead_kind == "won", "no alliance on an opening or inherited lead"
        assert self.allies[event.leader] is None and self.allies[event.copier] is None
        assert self.top is not None and self.top[0] == event.copier
        assert event.leader == self.leader
        self.allies[event.leader] = event.copier
        self.allies[event.copier] = event.leader
        self.alliances += 1

    def on_TurnPassed(self, event: TurnPassed) -> None:  # noqa: N802
        assert self.top is not None, "a leader may not pass"
        self.passed.add(event.seat)

    def on_PlayerWentOut(self, event: PlayerWentOut) -> None:  # noqa: N802
        assert not self.hands[event.seat]
        self.out.append(event.seat)
        assert event.place == len(self.out)

    def on_TrickWon(self, event: TrickWon) -> None:  # noqa: N802
        assert self.top is not None and event.seat == self.top[0]
        others = {s for s in range(self.n) if self.active(s) and s != event.seat}
        assert others <= self.passed, "a trick ends when every other holder passed"
        assert list(event.cards) == self.trick_cards
        self.top = None
        self.trick_cards = []
        self.passed = set()
        self.leader = event.seat
        self.lead_kind = "won"
        if not self.active(event.seat):
            assert isinstance(self.following[0], LeadInherited)

    def on_LeadInherited(self, event: LeadInherited) -> None:  # noqa: N802
        assert not self.active(event.from_seat)
        assert event.seat == self.next_active(event.from_seat)
        self.leader = event.seat
        self.lead_kind = "inherited"
        self.inherited += 1

    def on_PlayerLeft(self, event: PlayerLeft) -> None:  # noqa: N802
        self.left.add(event.seat)

    def on_HandSettled(self, event: HandSettled) -> None:  # noqa: N802
        holders = [s for s in range(self.n) if self.active(s)]
        assert len(holders) <= 1
        assert list(event.order) == self.out
        assert event.last == (holders[0] if holders else None)
        assert event.buried == self.buried
        # Finishing order complete: every seat went out, is last, or left holding cards.
        for seat in range(self.n):
            places = (
                (seat in self.out)
                + (seat == event.last)
                + (seat in self.left and seat not in self.out)
            )
            assert places == 1, f"seat {seat} has no single place"
        # 104 cards: played, buried and still held.
        held = [card for hand in self.hands for card in hand]
        assert Counter(self.played) + Counter(self.buried) + Counter(held) == DECK
        points = [0] * self.n
        if self.out:
            points[self.out[0]] += 10
        if len(self.out) > 1:
            points[self.out[1]] += 5
            if self.allies[self.out[0]] == self.out[1]:
                points[self.out[0]] += 10
                points[self.out[1]] += 10
        if event.last is not None:
            points[event.last] -= 5
        assert list(event.points) == points
        for seat in range(self.n):
            self.totals[seat] += points[seat]
        self.hand_rows.append([p + b for p, b in zip(points, self.bonuses, strict=True)])


def visible_codes(aggregate: Any, seat: int | None) -> set[str]:
    """Codes this perspective may have seen: public plays and buries, and its own cards."""
    seen: set[str] = set()
    for recorded in aggregate.pending_events:
        event = recorded.payload
        if isinstance(event, CombinationPlayed):
            seen.update(event.cards)
        elif isinstance(event, HandSettled):
            seen.update(event.buried)
        elif isinstance(event, HandDealt) and seat is not None:
            seen.update(event.hands[seat].value)
    return seen


def check_step(aggregate: Any, rng: random.Random) -> None:
    table = aggregate.state.table
    if aggregate.state.status == "active":
        cards: Counter[str] = Counter(table.discards)
        cards.update(table.buried)
        for hand in table.hands:
            cards.update(hand)
        assert cards == DECK, "104 cards: held, played or buried"
    if aggregate.state.over or rng.random() > 0.01:
        return
    seat = rng.choice([None, *range(aggregate.state.seat_count)])
    perspective = PUBLIC if seat is None else Perspective(seat=seat)
    served = served_json(aggregate, perspective, aggregate.pending_events)
    for token in card_tokens(CODES - visible_codes(aggregate, seat)):
        assert token not in served, f"{token!r} leaked to seat {seat}"


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_double_heartbeat_matches(chunk: int) -> None:
    seen: Counter[str] = Counter()
    for index in range(matches_per_chunk()):
        seed = 31_000_000 + chunk * 100_000 + index
        rng = random.Random(seed)
        seats = rng.randint(3, 6)
        options = {
            "dealer_exchange": rng.choice(["bury", "none"]),
            "betrayal": rng.choice(["allowed", "forbidden"]),
            "hands": rng.randint(1, 2),
        }
        leave_rate = rng.choice([0.0, 0.0, 0.002])
        try:
            result = play(
                "double-heartbeat",
                seats,
                options,
                rng,
                leave_rate=leave_rate,
                check_step=check_step,
                # Every other match as a generic client plays: listed commands only, never a
                # form's other commands (the others draw from everything, forms included).
                listed_only=index % 2 == 0,
            )
            referee = check_match(result, options)
        except AssertionError as error:
            raise AssertionError(f"random match seed {seed}: {error}") from error
        seen.update(
            alliances=referee.alliances,
            betrayals=referee.betrayals,
            inherited=referee.inherited,
            bombs=referee.bombs,
            leaves=len(referee.left),
        )
    if matches_per_chunk() >= 50:  # the random matches reach the rules that matter here
        assert all(seen[k] for k in ("alliances", "betrayals", "inherited", "bombs", "leaves")), (
            seen
        )


def check_match(result: Any, options: dict[str, Any]) -> Referee:
    aggregate = result.aggregate
    state = aggregate.state
    assert state.status == "finished"
    payloads = [r.payload for r in result.recorded]
    referee = Referee(payloads, options)
    referee.check()
    table = state.table
    settled = [p for p in payloads if isinstance(p, HandSettled)]
    seated = [s for s in range(state.seat_count) if s not in referee.left]
    assert len(settled) == options["hands"] or len(seated) < 2
    # Scores equal the rules applied to the event log.
    assert list(state.outcome.scores) == referee.totals == list(table.totals)
    rows = state.rules.score_rows(table)
    assert [list(row.points) for row in rows] == referee.hand_rows
    if len(seated) >= 2:
        best = max(referee.totals[s] for s in seated)
        assert state.outcome.winners == tuple(s for s in seated if referee.totals[s] == best)
    else:  # a forfeit: the seat left wins, the hand in play is not settled
        assert (state.outcome.winners, state.outcome.reason) == (tuple(seated), "forfeit")
    # The live hands at the end match the referee's bookkeeping.
    assert [sorted(h) for h in table.hands] == [sorted(h) for h in referee.hands]
    # Replay of the stored events reproduces the live state and chain.
    again = replayed(result.recorded)
    assert again.state == state
    assert (again.version, again.chain_head) == (aggregate.version, aggregate.chain_head)
    assert served_json(aggregate, FULL, result.recorded)
    return referee
