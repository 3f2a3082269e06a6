"""Heartbeat (RULES.md §1): the deal, the tempo deck and the options, as scenarios."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from domain import game
from domain.cards import standard_deck
from domain.errors import Failure
from domain.events import Event, HandDealt
from domain.fairness import RandomStream
from domain.perspective import PUBLIC, Perspective, redact
from domain.variant import Turn
from domain.variants.heartbeat import Heartbeat
from domain.variants.heartbeat.messages import TempoCardFlipped, TempoDeckShuffled
from projections.views import view
from tests.rules.heartbeat.scenarios import heartbeat
from tests.rules.scenario import NOW, SEED, refused_creation


def start(options: dict, seats: int = 3, game_id: str = "g") -> list[Event]:
    rules = Heartbeat()
    table = rules.setup(msgspec.convert(options, rules.options_type), seats)
    return rules.start(table, Turn(NOW, RandomStream(SEED, game_id, [""] * seats), 1))


@pytest.mark.parametrize(("jokers", "size"), [("zero", 54), ("removed", 52)])
def test_the_deal_uses_the_deck_the_jokers_option_gives(jokers: str, size: int) -> None:
    dealt = start({"jokers": jokers}, seats=6)[0]
    assert isinstance(dealt, HandDealt)
    hands = [secret.unwrap() for secret in dealt.hands]
    assert [len(hand) for hand in hands] == [5] * 6
    cards = [card for hand in hands for card in hand] + list(dealt.rest.unwrap())
    assert len(cards) == size
    assert Counter(cards) == Counter(standard_deck(jokers=jokers == "zero"))
    assert [secret.owner for secret in dealt.hands] == list(range(6))
    assert dealt.rest.owner is None


@pytest.mark.parametrize(("size", "each"), [(12, 3), (8, 2)])
def test_the_tempo_deck_is_shuffled_face_down_and_its_top_card_flipped(
    size: int, each: int
) -> None:
    """Judgement call heartbeat/tempo-deck-secret."""
    _, deck, flip = start({"tempo_deck": size})
    assert isinstance(deck, TempoDeckShuffled) and isinstance(flip, TempoCardFlipped)
    cards = deck.cards.unwrap()
    assert Counter(cards) == dict.fromkeys(("pressure", "reveal", "reverse", "double"), each)
    assert (deck.size, deck.cards.owner) == (size, None)
    assert flip.round == 1 and flip.tempo == cards[0]
    assert redact(deck, Perspective(seat=0)).cards.value is None
    orders = {start({"tempo_deck": size}, game_id=f"g{i}")[1].cards.unwrap() for i in range(8)}
    assert len(orders) > 1, "the tempo deck is shuffled"


def test_tempo_deck_0_means_no_tempo_cards() -> None:
    events = start({"tempo_deck": 0})
    assert [type(e) for e in events] == [HandDealt]
    state = heartbeat()
    table = state.rules.public_table(state.table, PUBLIC)
    assert (table.tempo, table.tempo_cards_left) == (None, 0)


def test_the_flipped_tempo_card_is_in_every_view() -> None:
    state = heartbeat(("reverse", "double", "pressure"))
    for seat in (None, 0, 1, 2):
        current = view(state, version=1, chain_head="h", perspective=Perspective(seat=seat))
        assert current.table.tempo == "reverse"
        assert current.table.tempo_cards_left == 2


def test_options_default_to_the_first_listed_value() -> None:
    assert game.parse_options(Heartbeat(), None) == {
        "jokers": "zero",
        "tempo_deck": 12,
        "reveal_shows": "card",
        "pressure_seconds": 5,
        "double_rule": "winner_only",
    }


@pytest.mark.parametrize(
    ("seats", "options", "code"),
    [
        (1, None, "invalid_seat_count"),
        (7, None, "invalid_seat_count"),
        (3, {"tiebreak": "shared"}, "unknown_option"),
        (3, {"jokers": "one"}, "invalid_option"),
        (3, {"tempo_deck": 10}, "invalid_option"),
        (3, {"tempo_deck": "12"}, "invalid_option"),
        (3, {"reveal_shows": "suit"}, "invalid_option"),
        (3, {"pressure_seconds": 7}, "invalid_option"),
        (3, {"double_rule": "everyone"}, "invalid_option"),
    ],
)
def test_creation_is_validated(seats: int, options: dict | None, code: str) -> None:
    refused = refused_creation("heartbeat", seats, options)
    assert (refused.code, refused.failure) == (code, Failure.INVALID)
