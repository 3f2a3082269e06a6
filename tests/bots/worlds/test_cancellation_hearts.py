"""Cancellation Hearts worlds keep what the seat knows, and the real table keeps it too.

At every position of random games at 6, 7, 8 and 11 seats: a world holds the two decks exactly,
between hands, pending passes, kitty and the cards played this hand; no hand holds a suit its
seat has shown it lacks; the receiver of the seat's pass holds what it has not played of it. The
real table meets the same (so what the sampler infers from the view is sound), and the table
view's history is the hand's tricks for everyone and the delivered pass for its passer alone.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bots.contract import Random, bot_draw
from bots.table import bot_seed, new_game, play_out
from bots.worlds.cancellation_hearts import (
    ANY_SUIT,
    BIT,
    CancellationHeartsWorld,
    deal_avoiding,
    voids,
)
from domain.aggregate import GameAggregate
from domain.commands import Command
from domain.fairness import Draw
from domain.perspective import PUBLIC, Perspective
from domain.variants.cancellation_hearts import CancellationHearts
from domain.variants.cancellation_hearts.table import CancellationHeartsTable
from domain.variants.cancellation_hearts.tricks import DECK, SUIT_OF
from domain.variants.cancellation_hearts.view import CancellationHeartsView
from projections.views import View

RULES = CancellationHearts()
VARIANT = "cancellation-hearts"


def every_card(table: CancellationHeartsTable) -> Counter[str]:
    """The hand's 104 cards wherever they are: hands, pending passes, kitty, played."""
    found = Counter(card for hand in table.hands for card in hand)
    found.update(card for cards in table.passes if cards for card in cards)
    found.update((*table.kitty, *table.kitty_taken))
    found.update(play.card for trick in table.hand_tricks for play in trick.plays)
    found.update(play.card for play in table.plays)
    return found


def keeps_what_is_known(table: CancellationHeartsTable, seen: CancellationHeartsView) -> None:
    tricks = [trick.plays for trick in seen.hand_tricks] + [seen.trick]
    for seat, lacking in voids(plays for plays in tricks if plays).items():
        assert not [c for c in table.hands[seat] if BIT[SUIT_OF[c]] & lacking], (seat, lacking)
    sent = seen.sent
    if sent is not None:
        kept = Counter(sent.cards)
        kept.subtract(play.card for plays in tricks for play in plays if play.seat == sent.to)
        assert not +kept - Counter(table.hands[sent.to]), "the receiver holds the rest of the pass"


@pytest.mark.parametrize("seats", [6, 7, 8, 11])
def test_a_world_and_the_real_table_both_keep_what_the_seat_knows(seats: int) -> None:
    sampler = CancellationHeartsWorld()
    checked = {"positions": 0, "voids": 0, "passes": 0}

    def check(game: GameAggregate, seat: int, seen: View, command: Command) -> None:
        real = game.state.table
        table = seen.table
        assert isinstance(real, CancellationHeartsTable)
        assert isinstance(table, CancellationHeartsView)
        world = sampler.sample(seen, bot_draw(b"\x09" * 32, seen.game_id, seat, seen.version))
        assert isinstance(world.table, CancellationHeartsTable)
        assert every_card(world.table) == every_card(real) == Counter(DECK)
        for kept in (real, world.table):
            keeps_what_is_known(kept, table)
        assert table.hand_tricks == real.hand_tricks
        assert table.sent == (real.sent[seat] if real.sent else None)
        checked["positions"] += 1
        checked["voids"] += bool(voids(trick.plays for trick in table.hand_tricks))
        checked["passes"] += table.sent is not None

    for deal in range(2):
        game = new_game(VARIANT, seats, deal, {"target": 50})
        seeds = [bot_seed(VARIANT, deal, seat) for seat in range(seats)]
        play_out(game, [Random()] * seats, seeds, watch=check)
    assert checked["voids"] > checked["positions"] // 3
    assert checked["passes"] > checked["positions"] // 2


def test_the_delivered_pass_is_seen_by_its_passer_alone() -> None:
    seats = 7
    game = new_game(VARIANT, seats, 3, {"target": 50})
    seen_tricks = []

    def check(game: GameAggregate, seat: int, seen: View, command: Command) -> None:
        real = game.state.table
        assert isinstance(real, CancellationHeartsTable)
        if not real.sent:
            return
        public = RULES.public_table(real, PUBLIC)
        assert public.sent is None and public.hand_tricks == real.hand_tricks
        seen_tricks.append(len(real.hand_tricks))
        for viewer in range(seats):
            sent = RULES.public_table(real, Perspective(seat=viewer)).sent
            assert sent is not None and sent == real.sent[viewer]
            assert real.received[sent.to] == sent.cards

    seeds = [bot_seed(VARIANT, 3, seat) for seat in range(seats)]
    play_out(game, [Random()] * seats, seeds, watch=check)
    assert max(seen_tricks) == 104 // seats - 1  # the history grows to the hand's last trick


def test_a_deal_avoiding_voids_gives_every_holder_its_count_of_allowed_suits() -> None:
    spades = [card for card in DECK if SUIT_OF[card] == "S"][:15]
    hearts = [card for card in DECK if SUIT_OF[card] == "H"][:15]
    pool = [*spades, *hearts, "2D", "3D", "4C", "5C"]
    sizes = [10, 10, 10, 4]
    accepted = [BIT["S"] | BIT["D"], BIT["H"] | BIT["C"], ANY_SUIT, ANY_SUIT]
    dealt_first = []
    for label in range(20):
        dealt = deal_avoiding(pool, sizes, accepted, Draw(b"\x01" * 32, bytes([label])))
        assert [len(cards) for cards in dealt] == sizes
        assert Counter(card for cards in dealt for card in cards) == Counter(pool)
        for cards, mask in zip(dealt, accepted, strict=True):
            assert all(BIT[SUIT_OF[card]] & mask for card in cards)
        dealt_first.append(dealt[2])
    assert len(set(dealt_first)) > 10, "the deal is drawn, not fixed"


def test_a_deal_whose_voids_cannot_be_met_ignores_them_rather_than_fail() -> None:
    pool = ["2S", "3S", "4S", "5H"]
    dealt = deal_avoiding(pool, [2, 2], [BIT["H"], ANY_SUIT], Draw(b"\x02" * 32, b"x"))
    assert [len(cards) for cards in dealt] == [2, 2]
    assert Counter(dealt[0] + dealt[1]) == Counter(pool)
