"""Double Heartbeat combinations (RULES.md §2): which combination beats which, and bomb bonuses."""

from __future__ import annotations

import pytest

from domain.variants.double_heartbeat.combinations import Combination, beats, read
from tests.rules.double_heartbeat.independent import ALL13, cards, run


def combo(text: str) -> Combination:
    return read(cards(text))


# (stronger, weaker): the first beats the second and not the other way round
STRONGER: list[tuple[str, str]] = [
    ("4S", "3S"),
    ("2S", "AS"),
    ("2S 2H", "AS AH"),
    ("KS KH KD 3S 3H", "QS QH QD AS AH"),  # triple+pair: only the triple counts
    ("2S 3H 4D 5C 6S", "AS 2H 3D 4C 5S"),  # A-2-3-4-5 is the lowest straight
    ("10S JH QD KC AS", "9S 10H JD QC KS"),  # 10-J-Q-K-A the highest
    ("QS QH KS KH AS AH", "AS AH 2S 2H 3S 3H"),
    ("KS KH KD AS AH AD", "AS AH AD 2S 2H 2D"),
    ("4S 4H 4D 5S 5H 5D 3S 3H 3D 3C", "3S 3H 3D 4S 4H 4D KS KH AS AH"),
    ("3S 3H 3D 3C", "2S 3H 4D 5C 6S 7H 8D 9C 10S JH QD KC"),  # any bomb beats non-bombs
    ("3S 3H 3D 3C", "2S 2H 2D AS AH"),
    ("2S 2H 2D 2C", "3S 3H 3D 3C"),
    ("5x3", "4x2"),  # more cards beat fewer
    ("3S 4S 5S 6S 7S", "4x2"),  # a straight flush beats every 4-bomb
    ("3S 4S 5S 6S 7S", "5x2"),  # ... and every 5 of a kind
    ("6x3", run(ALL13, "S")),  # ... and loses to every 6+ bomb
    ("3S 4S 5S 6S 7S 8S", "10H JH QH KH AH"),  # longer straight flush first
    ("4S 5S 6S 7S 8S", "3H 4H 5H 6H 7H"),  # then the higher top
    ("7x3", "6x2"),
    ("8x3", "7x2"),
    ("8x3", run(ALL13, "D")),
]


@pytest.mark.parametrize(("strong", "weak"), STRONGER)
def test_comparisons(strong: str, weak: str) -> None:
    assert beats(combo(strong), combo(weak))
    assert not beats(combo(weak), combo(strong))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("3S", "3H"),  # equal: neither beats
        ("3S", "4S 4H"),  # single vs pair
        ("3S 4H 5D 6C 7S", "3S 4H 5D 6C 7S 8H"),  # straights of different lengths
        ("3S 3H 4S 4H 5S 5H", "3S 3H 4S 4H 5S 5H 6S 6H"),
        ("3S 3H 3D 4S 4H 4D 9S 9H JS JH", run("5 6 7", per=3) + " 9S 9H JS JH QS QH"),
        ("3S 3H 3D 4S 4H 4D", "5S 5H 5D 6S 6H"),  # airplane vs triple+pair
        ("8x2", "8x3"),  # 8 of a kind is never beaten, not even by another 8
        ("3S 4S 5S 6S 7S", "3H 4H 5H 6H 7H"),
    ],
)
def test_incomparable_or_equal(first: str, second: str) -> None:
    assert not beats(combo(first), combo(second))
    assert not beats(combo(second), combo(first))


def test_bomb_bonuses() -> None:
    assert [combo(f"{n}x5").bonus for n in range(4, 9)] == [2, 5, 10, 15, 20]
    assert combo("3S 4S 5S 6S 7S 8S").bonus == 5
    assert combo("3S 4H 5S 6S 7S").bonus == 0
