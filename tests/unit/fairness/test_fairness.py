"""The random stream against an independent reading of docs/fairness.md."""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections import Counter

import pytest

from domain.cards import standard_deck
from domain.fairness import RandomStream, commitment

SEED = bytes(range(32))
GAME = "5f0c2b1e-1111-4c3a-9d2e-000000000001"


def reference_block(
    seed: bytes, label: str, game: str, client_seeds: list[str], counter: int
) -> bytes:
    def field(text: str) -> bytes:
        data = text.encode()
        return struct.pack(">I", len(data)) + data

    message = (
        field("cardledger/random/v1")
        + field(label)
        + field(game)
        + struct.pack(">I", len(client_seeds))
        + b"".join(field(s) for s in client_seeds)
        + struct.pack(">Q", counter)
    )
    return hmac.new(seed, message, hashlib.sha256).digest()


def reference_words(seed: bytes, label: str, game: str, client_seeds: list[str]):
    counter = 0
    while True:
        block = reference_block(seed, label, game, client_seeds, counter)
        counter += 1
        for offset in range(0, 32, 4):
            yield struct.unpack(">I", block[offset : offset + 4])[0]


def reference_shuffle(items: list[str], words) -> list[str]:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        bound = i + 1
        limit = 2**32 - (2**32 % bound)
        while (word := next(words)) >= limit:
            pass
        j = word % bound
        items[i], items[j] = items[j], items[i]
    return items


def test_shuffle_matches_the_documented_algorithm() -> None:
    seeds = ["alice's seed", "", "ünïcode"]
    stream = RandomStream(SEED, GAME, seeds)
    expected = reference_shuffle(
        list(standard_deck()), reference_words(SEED, "deal/1", GAME, seeds)
    )
    assert list(stream.shuffle("deal/1", standard_deck())) == expected


def test_commitment_is_sha256_of_the_seed() -> None:
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()


def test_labels_and_client_seeds_change_the_draws() -> None:
    deck = standard_deck()
    base = RandomStream(SEED, GAME, ["a", "b"]).shuffle("deal/1", deck)
    assert RandomStream(SEED, GAME, ["a", "b"]).shuffle("deal/1", deck) == base
    assert RandomStream(SEED, GAME, ["a", "b"]).shuffle("deal/2", deck) != base
    assert RandomStream(SEED, GAME, ["a", "c"]).shuffle("deal/1", deck) != base
    # Seat boundaries are length-prefixed: ("ab", "") is not ("a", "b").
    assert RandomStream(SEED, GAME, ["ab", ""]).shuffle("deal/1", deck) != base


def test_shuffle_is_a_permutation() -> None:
    deck = standard_deck(jokers=True)
    shuffled = RandomStream(SEED, GAME, []).shuffle("x", deck)
    assert sorted(shuffled) == sorted(deck)


def test_below_is_uniform() -> None:
    draw = RandomStream(SEED, GAME, []).draw("uniformity")
    counts = Counter(draw.below(6) for _ in range(60_000))
    expected = 10_000
    chi_square = sum((counts[k] - expected) ** 2 / expected for k in range(6))
    assert set(counts) == set(range(6))
    assert chi_square < 20.5  # p ≈ 0.001 for 5 degrees of freedom


def test_below_rejects_impossible_bounds() -> None:
    draw = RandomStream(SEED, GAME, []).draw("bounds")
    with pytest.raises(ValueError, match="outside"):
        draw.below(0)
    assert 0 <= draw.below(2**32) < 2**32


def test_seed_must_be_32_bytes() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        RandomStream(b"short", GAME, [])
