"""Double Heartbeat combinations (RULES.md §2): one representative per combination a hand holds."""

from __future__ import annotations

import random
from collections import Counter

from domain.cards import double_deck
from domain.variants.double_heartbeat.choices import representatives
from domain.variants.double_heartbeat.combinations import classify
from tests.rules.double_heartbeat.independent import ALL13, cards, run


def test_every_representative_reads_as_what_it_stands_for() -> None:
    rng = random.Random(7)
    deck = list(double_deck())
    for index in range(150):
        hand = rng.sample(deck, rng.choice([5, 17, 20, 26, 34, 36]))
        seen = set()
        for candidate in representatives(hand):
            combination = candidate.combination
            cards = candidate.cards
            if candidate.wings is not None:  # the chain, with the first wings it may take
                wings = candidate.wings[: combination.count // 5]
                cards = (*cards, *(card for pair in wings for card in pair))
            assert Counter(cards) <= Counter(hand)
            assert classify(cards) == (combination,), f"hand {index}: {candidate}"
            pattern = tuple(sorted(Counter(c[:-1] for c in cards).items()))
            key = (combination.kind, pattern)
            assert key not in seen, f"hand {index}: {key} listed twice"
            seen.add(key)


def test_representatives_of_a_small_hand() -> None:
    hand = cards("3S 3H 3D 4S 4H 5S 6S 7S")
    listed = [
        (c.combination.kind, c.combination.count, c.combination.rank) for c in representatives(hand)
    ]
    assert listed == [
        ("single", 1, "3"),
        ("single", 1, "4"),
        ("single", 1, "5"),
        ("single", 1, "6"),
        ("single", 1, "7"),
        ("pair", 2, "3"),
        ("pair", 2, "4"),
        ("triple", 3, "3"),
        ("triple_pair", 5, "3"),
        ("straight", 5, "7"),  # 3H or 4H makes it mixed
        ("straight_flush", 5, "7"),  # listed separately
    ]


def test_legal_commands_for_36_card_hands_are_distinct() -> None:
    """Worst cases found for listing (`make bench` times them): 3 of each of 12 ranks, two suits
    of runs plus extras."""
    hands = {
        "3 of 12 ranks": run("3 4 5 6 7 8 9 10 J Q K A", per=3, suits="SHD"),
        "two full suits + 10": run(ALL13, "S")
        + " "
        + run(ALL13, "H")
        + " "
        + run("3 4 5 6 7 8 9 10 J Q", "D"),
    }
    for name, text in hands.items():
        hand = cards(text)
        assert len(hand) == 36, name
        listed = representatives(hand)
        assert len(listed) > 300, name
        assert len({(c.combination, c.cards) for c in listed}) == len(listed)
