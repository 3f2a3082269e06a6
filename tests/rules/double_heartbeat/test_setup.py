"""Double Heartbeat (RULES.md §2): the deal and the options, as scenarios."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
import pytest

from domain import game
from domain.cards import double_deck
from domain.errors import Failure
from domain.events import HandDealt
from domain.fairness import RandomStream
from domain.variant import Turn
from domain.variants.double_heartbeat.messages import FirstDealerDrawn
from tests.rules.double_heartbeat.scenarios import RULES, V
from tests.rules.scenario import NOW, SEED, refused_creation


@pytest.mark.parametrize(
    ("seats", "size", "dealer_size"), [(3, 34, 36), (4, 26, 26), (5, 20, 24), (6, 17, 19)]
)
def test_the_deal_gives_the_dealer_the_surplus(seats: int, size: int, dealer_size: int) -> None:
    """Judgement call double-heartbeat/deal-cut."""
    options = msgspec.convert({}, RULES.options_type)
    stream = RandomStream(SEED, "g", [""] * seats)
    events = RULES.start(RULES.setup(options, seats), Turn(NOW, stream, 1))
    drawn, dealt = events
    assert isinstance(drawn, FirstDealerDrawn)
    assert drawn.seat == stream.choice("first-dealer", range(seats))
    assert isinstance(dealt, HandDealt)
    assert (dealt.hand, dealt.dealer) == (1, drawn.seat)
    sizes = [len(secret.value) for secret in dealt.hands]
    assert sizes == [dealer_size if s == drawn.seat else size for s in range(seats)]
    assert [secret.owner for secret in dealt.hands] == list(range(seats))
    assert Counter(card for secret in dealt.hands for card in secret.value) == Counter(
        double_deck()
    )
    deck = stream.shuffle("deal/1", double_deck())
    assert tuple(card for secret in dealt.hands for card in secret.value) == deck


@pytest.mark.parametrize(
    ("seats", "options", "code"),
    [
        (2, None, "invalid_seat_count"),
        (7, None, "invalid_seat_count"),
        (4, {"hands": 0}, "invalid_option"),
        (4, {"hands": 21}, "invalid_option"),
        (4, {"betrayal": "maybe"}, "invalid_option"),
        (4, {"dealer_exchange": "swap"}, "invalid_option"),
        (4, {"jokers": "zero"}, "unknown_option"),
    ],
)
def test_creation_is_validated(seats: int, options: dict[str, Any] | None, code: str) -> None:
    refused = refused_creation(V, seats, options)
    assert (refused.code, refused.failure) == (code, Failure.INVALID)


def test_defaults_are_the_first_listed_values() -> None:
    events = game.create(
        game_id="g",
        variant_id=V,
        seat_count=5,
        options=None,
        creator_id="p",
        creator_name="P",
        client_seed="",
        seed=SEED,
    )
    assert events[0].options == {"dealer_exchange": "bury", "betrayal": "allowed", "hands": None}
