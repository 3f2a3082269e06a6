"""One Up One Down worlds keep what the seat saw go into the others' hands.

The view's ``taken`` and ``slipped`` lists are checked against the seat's own reading of the log
(every event as the seat may see it, secrets of the others emptied), and the sampler against
them: a card the seat saw go into a hand, and has not seen since, stays in that hand in every
world (where the hand still holds that many cards), the whole deck is in the world once, and a
face-down card the seat cannot see is about as often honest as ``HONEST`` says.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

from bots.contract import Random, bot_draw
from bots.table import bot_seed, new_game, play_out
from bots.worlds.one_up_one_down import HONEST, OneUpOneDownWorld
from domain.aggregate import GameAggregate
from domain.cards import rank, standard_deck
from domain.events import CardPlayed
from domain.perspective import Perspective, redact
from domain.variants.one_up_one_down.messages import (
    CardPlayedFaceDown,
    ChallengeResolved,
    PileCollected,
)
from projections.views import View

VARIANT = "one-up-one-down"
GAMES = int(os.environ.get("CARDLEDGER_BOT_GAMES", "40")) // 4
OPTIONS: dict[str, Any] = {"max_plays": 120}


class Seen:
    """What one seat saw go into each hand and not leave, from the log as it may read it."""

    def __init__(self, seat: int, seats: int) -> None:
        self.seat = seat
        self.taken: list[list[str]] = [[] for _ in range(seats)]
        self.slipped: list[list[str]] = [[] for _ in range(seats)]
        self.pile: list[tuple[int, str | None, bool]] = []  # seat, card as seen, turned up

    def read(self, event: Any) -> None:
        match event:
            case CardPlayed():
                self._gone(event.card)
                self.pile.append((event.seat, event.card, True))
            case CardPlayedFaceDown():
                self.pile.append((event.seat, event.card.value, False))
            case ChallengeResolved():
                self._gone(event.card)
                seat, _, _ = self.pile[-1]
                self.pile[-1] = (seat, event.card, True)
            case PileCollected():
                self.taken[event.seat] += event.shown
                if event.seat == self.seat:
                    held = {*event.shown, *event.hidden.value}
                    self.slipped = [[c for c in cards if c not in held] for cards in self.slipped]
                else:
                    self.slipped[event.seat] += [
                        card
                        for seat, card, up in self.pile
                        if seat == self.seat and not up and card is not None
                    ]
                self.pile = []

    def _gone(self, card: str) -> None:
        self.taken = [[c for c in cards if c != card] for cards in self.taken]
        self.slipped = [[c for c in cards if c != card] for cards in self.slipped]


def seen_from_log(game: GameAggregate, seat: int) -> Seen:
    seen = Seen(seat, game.state.seat_count)
    for recorded in game.pending_events:
        seen.read(redact(recorded.payload, Perspective(seat=seat)))  # type: ignore[attr-defined]
    return seen


def games(check: Any) -> None:
    for deal in range(GAMES):
        seats = 2 + deal % 3
        game = new_game(VARIANT, seats, deal, OPTIONS)
        seeds = [bot_seed(VARIANT, deal, seat) for seat in range(seats)]
        play_out(game, [Random()] * seats, seeds, watch=check)


def test_the_view_lists_what_the_seat_saw_go_into_each_hand() -> None:
    listed = 0

    def check(game: GameAggregate, seat: int, view: View, command: Any) -> None:
        nonlocal listed
        seen = seen_from_log(game, seat)
        assert [list(cards) for cards in view.table.taken] == seen.taken
        assert [list(cards) for cards in view.table.slipped] == seen.slipped
        listed += sum(map(len, seen.slipped)) > 0

    games(check)
    assert listed > 0, "some seat saw its own face-down card go into another hand"


def test_worlds_keep_those_cards_where_they_went() -> None:
    sampler = OneUpOneDownWorld()
    kept = 0
    honest: Counter[bool] = Counter()

    def check(game: GameAggregate, seat: int, view: View, command: Any) -> None:
        nonlocal kept
        world = sampler.sample(view, bot_draw(b"\x09" * 32, view.game_id, seat, view.version))
        table = world.table
        everywhere = [*table.stock, *(c.card for c in table.pile)]
        everywhere += [card for hand in table.hands for card in hand]
        assert sorted(everywhere) == sorted(standard_deck()), "the whole deck, each card once"
        in_sight = {*view.hand, *(c.card for c in view.table.pile if c.card is not None)}
        slipped = {card for cards in view.table.slipped for card in cards}
        for holder in range(view.seat_count):
            if holder == seat:
                continue
            known = [*view.table.slipped[holder]]
            known += [card for card in view.table.taken[holder] if card not in slipped]
            known = [card for card in known if card not in in_sight]
            if len(known) <= view.hand_sizes[holder]:
                assert set(known) <= set(table.hands[holder]), (holder, view.version)
                kept += len(known)
        unseen = Counter(standard_deck()) - Counter(in_sight)
        for shown, sampled in zip(view.table.pile, table.pile, strict=True):
            if shown.card is None and any(rank(c) == shown.declared for c in unseen):
                honest[rank(sampled.card) == shown.declared] += 1

    games(check)
    assert kept > 0
    share = honest[True] / honest.total()
    assert abs(share - HONEST[0] / HONEST[1]) < 0.1, (share, honest)
