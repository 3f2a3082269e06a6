"""Every variant's random draws re-derived from docs/fairness.md alone (§2 "Decks" and the
variant sections), with the independent stream reader of test_fairness: nothing here calls the
domain's random stream."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from domain import game, game_state
from domain.events import Event, HandDealt
from domain.game_state import GameState
from domain.variants.double_heartbeat.messages import FirstDealerDrawn
from domain.variants.heartbeat.messages import ChoiceTimedOut, ChooseCard, TempoDeckShuffled
from domain.variants.one_up_one_down.messages import FirstPlayerDrawn
from domain.variants.open_hand.messages import FirstLeaderChosen
from tests.unit.fairness.test_fairness import reference_words

SEED = bytes(range(32))
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
SUITS = "SHDC"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
CLIMBING = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]


def canonical(*, jokers: bool = False, double: bool = False) -> list[str]:
    cards = [rank + suit for suit in SUITS for rank in RANKS]
    if double:
        return [card for card in cards for _ in range(2)]
    return [*cards, "BJ", "RJ"] if jokers else cards


class Use:
    """One labelled use of the stream, read as docs/fairness.md §2 says."""

    def __init__(self, game_id: str, seeds: list[str], label: str, seed: bytes = SEED) -> None:
        self.words: Iterator[int] = reference_words(seed, label, game_id, seeds)

    def uniform(self, bound: int) -> int:
        limit = 2**32 - (2**32 % bound)
        while (word := next(self.words)) >= limit:
            pass
        return word % bound

    def shuffle(self, items: list[Any]) -> list[Any]:
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.uniform(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


def seated(variant: str, seats: int, options: dict[str, Any], game_id: str) -> list[Event]:
    """A game created and joined by ``seats`` players with client seeds; every event so far."""
    events = game.create(
        game_id=game_id,
        variant_id=variant,
        seat_count=seats,
        options=options,
        creator_id="p0",
        creator_name="P0",
        client_seed="seed of seat 0",
        seed=SEED,
    )
    state = game_state.fold(game_state.evolve(None, events[0]), events[1:])
    for seat in range(1, seats):
        new = game.join(
            state,
            player_id=f"p{seat}",
            name=f"P{seat}",
            client_seed=f"seed {seat}",
            now=NOW,
            version=len(events),
        )
        events += new
        state = game_state.fold(state, new)
    return events


def seeds_of(seats: int) -> list[str]:
    return ["seed of seat 0", *(f"seed {seat}" for seat in range(1, seats))]


def hands_of(events: list[Event]) -> list[list[str]]:
    dealt = next(e for e in events if isinstance(e, HandDealt))
    return [list(secret.unwrap()) for secret in dealt.hands]


def rest_of(events: list[Event]) -> list[str]:
    dealt = next(e for e in events if isinstance(e, HandDealt))
    return list(dealt.rest.unwrap())


def test_open_hand_deal_and_high_card_draw() -> None:
    game_id, seats = "11111111-1111-4111-8111-111111111111", 5
    events = seated("open-hand", seats, {"first_leader": "high_card"}, game_id)
    deck = Use(game_id, seeds_of(seats), "deal/1").shuffle(canonical())
    assert hands_of(events) == [deck[5 * s : 5 * s + 5] for s in range(seats)]
    assert rest_of(events) == deck[5 * seats :]
    use, pile = Use(game_id, seeds_of(seats), "first-leader"), deck[5 * seats :]
    draws = [pile.pop(use.uniform(len(pile))) for _ in range(seats)]
    (chosen,) = [e for e in events if isinstance(e, FirstLeaderChosen)]
    assert list(chosen.draws) == draws

    def strength(card: str) -> tuple[int, int]:
        return CLIMBING.index(card[:-1]), "DCHS".index(card[-1])

    assert chosen.seat == max(range(seats), key=lambda seat: strength(draws[seat]))


def first_pressure_game(seats: int) -> tuple[str, list[Event]]:
    for index in range(200):
        game_id = f"22222222-2222-4222-8222-{index:012d}"
        events = seated("heartbeat", seats, {"tempo_deck": 8}, game_id)
        deck = next(e for e in events if isinstance(e, TempoDeckShuffled))
        if deck.cards.unwrap()[0] == "pressure":
            return game_id, events
    raise AssertionError("no game opens with Pressure")


def test_heartbeat_deal_tempo_deck_and_timeout_picks() -> None:
    seats = 4
    game_id, events = first_pressure_game(seats)
    deck = Use(game_id, seeds_of(seats), "deal/1").shuffle(canonical(jokers=True))
    assert hands_of(events) == [deck[5 * s : 5 * s + 5] for s in range(seats)]
    tempo = ["pressure"] * 2 + ["reveal"] * 2 + ["reverse"] * 2 + ["double"] * 2
    shuffled = next(e for e in events if isinstance(e, TempoDeckShuffled))
    assert list(shuffled.cards.unwrap()) == Use(game_id, seeds_of(seats), "tempo").shuffle(tempo)
    # Seat 1 chooses; at the deadline the others get a card each under their own label.
    state: GameState = game_state.fold(game_state.evolve(None, events[0]), events[1:])
    chosen = state.table.hands[1][2]
    choose = game.act(
        state,
        player_id="p1",
        command=ChooseCard(card=chosen),
        now=NOW,
        version=len(events),
    )
    state = game_state.fold(state, choose)
    expired = game.expire(state, now=NOW + timedelta(minutes=1), version=len(events) + 1)
    timed_out = next(e for e in expired if isinstance(e, ChoiceTimedOut))
    assert timed_out.round == 1 and timed_out.seats == (0, 2, 3)
    for seat, card in zip(timed_out.seats, timed_out.cards, strict=True):
        playable = deck[5 * seat : 5 * seat + 5]
        use = Use(game_id, seeds_of(seats), f"timeout/round/1/seat/{seat}")
        assert card.unwrap() == playable[use.uniform(len(playable))]


def test_double_heartbeat_first_dealer_and_cut() -> None:
    game_id, seats = "33333333-3333-4333-8333-333333333333", 5
    events = seated("double-heartbeat", seats, {}, game_id)
    dealer = Use(game_id, seeds_of(seats), "first-dealer").uniform(seats)
    (drawn,) = [e for e in events if isinstance(e, FirstDealerDrawn)]
    assert drawn.seat == dealer
    deck = Use(game_id, seeds_of(seats), "deal/1").shuffle(canonical(double=True))
    hands, position = [], 0
    for seat in range(seats):
        size = 20 + (4 if seat == dealer else 0)
        hands.append(deck[position : position + size])
        position += size
    assert hands_of(events) == hands


def test_cancellation_hearts_deal_and_kitty() -> None:
    game_id, seats = "44444444-4444-4444-8444-444444444444", 9
    events = seated("cancellation-hearts", seats, {}, game_id)
    deck = Use(game_id, seeds_of(seats), "deal/1").shuffle(canonical(double=True))
    order = {card: index for index, card in enumerate(canonical())}
    expected = [sorted(deck[11 * s : 11 * s + 11], key=order.__getitem__) for s in range(seats)]
    assert hands_of(events) == expected
    assert rest_of(events) == deck[99:]  # 104 mod 9 = 5 cards of kitty


def test_one_up_one_down_deal_stock_and_first_player() -> None:
    game_id, seats = "55555555-5555-4555-8555-555555555555", 4
    for index in range(50):  # find a game whose high-card draw needs a second round
        game_id = f"55555555-5555-4555-8555-{index:012d}"
        events = seated("one-up-one-down", seats, {}, game_id)
        drawn = next(e for e in events if isinstance(e, FirstPlayerDrawn))
        if len(drawn.rounds) > 1:
            break
    deck = Use(game_id, seeds_of(seats), "deal/1").shuffle(canonical())
    assert hands_of(events) == [deck[7 * s : 7 * s + 7] for s in range(seats)]
    assert rest_of(events) == deck[7 * seats :]
    contenders, rounds = list(range(seats)), []
    while len(contenders) > 1:
        fresh = Use(game_id, seeds_of(seats), f"first-player/{len(rounds) + 1}")
        cards = fresh.shuffle(canonical())
        ranks = {seat: cards[i][:-1] for i, seat in enumerate(contenders)}
        rounds.append([(seat, ranks[seat]) for seat in contenders])
        best = max(CLIMBING.index(r) for r in ranks.values())
        contenders = [seat for seat in contenders if CLIMBING.index(ranks[seat]) == best]
    assert [[(d.seat, d.rank) for d in draws] for draws in drawn.rounds] == rounds
    assert drawn.seat == contenders[0]
    assert len(rounds) > 1
