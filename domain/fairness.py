"""The game's verifiable random stream (commit–reveal). See docs/fairness.md for the exact spec.

The server draws a 32-byte secret seed when a game is created and publishes SHA-256(seed). Every
random decision of the game reads from HMAC-SHA256 blocks keyed by the seed and bound to the game
id, the players' client seeds and a label naming the use. Integers come from rejection sampling
over 32-bit words; shuffles are Fisher–Yates from the last position down.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

DOMAIN_TAG = "cardledger/random/v1"
BOT_SEED_TAG = "cardledger/bot/v1"
SEED_BYTES = 32
_WORD = 1 << 32


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: lowercase hex SHA-256."""
    return hashlib.sha256(seed).hexdigest()


def _field(text: str) -> bytes:
    data = text.encode("utf-8")
    return len(data).to_bytes(4, "big") + data


_DOMAIN_FIELD = _field(DOMAIN_TAG)


def bot_seed(game_seed: bytes, game_id: str, seat: int) -> bytes:
    """The seed of the bot at ``seat``: HMAC-SHA256 keyed by the game's seed over
    ``field("cardledger/bot/v1") ‖ field(game id) ‖ u32(seat)`` (docs/fairness.md §8).

    Committed with the game's seed before any deal and revealed with it at the end, so a bot
    needs no secret of its own, and an auditor re-derives it from the revealed seed."""
    if len(game_seed) != SEED_BYTES:
        raise ValueError(f"seed must be {SEED_BYTES} bytes")
    message = _field(BOT_SEED_TAG) + _field(game_id) + seat.to_bytes(4, "big")
    return hmac.digest(game_seed, message, "sha256")


class Draw:
    """One labelled use of the stream: a sequence of blocks read front to back."""

    def __init__(self, key: bytes, prefix: bytes) -> None:
        self._key = key
        self._prefix = prefix
        self._counter = 0
        self._buffer = b""

    def _block(self) -> bytes:
        message = self._prefix + self._counter.to_bytes(8, "big")
        self._counter += 1
        return hmac.digest(self._key, message, "sha256")  # one call into OpenSSL

    def take(self, count: int) -> bytes:
        """The next ``count`` bytes of this use."""
        while len(self._buffer) < count:
            self._buffer += self._block()
        taken, self._buffer = self._buffer[:count], self._buffer[count:]
        return taken

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)`` by rejection sampling of 32-bit words."""
        if not 1 <= bound <= _WORD:
            raise ValueError(f"bound {bound} outside 1..2**32")
        limit = _WORD - (_WORD % bound)
        while True:
            word = int.from_bytes(self.take(4), "big")
            if word < limit:
                return word % bound

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        cards = list(items)
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return tuple(cards)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]


class RandomStream:
    """All randomness of one game. Each use names a label; the same label gives the same draws."""

    def __init__(self, seed: bytes, game_id: str, client_seeds: Sequence[str]) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"seed must be {SEED_BYTES} bytes")
        self._seed = seed
        self._binding = (
            _field(game_id)
            + len(client_seeds).to_bytes(4, "big")
            + b"".join(_field(client_seed) for client_seed in client_seeds)
        )

    def draw(self, label: str) -> Draw:
        return Draw(self._seed, _DOMAIN_FIELD + _field(label) + self._binding)

    def shuffle(self, label: str, items: Sequence[T]) -> tuple[T, ...]:
        return self.draw(label).shuffle(items)

    def choice(self, label: str, items: Sequence[T]) -> T:
        return self.draw(label).choice(items)

    def salt(self, label: str) -> str:
        """16 bytes (hex) that blind a secret inside the hash chain."""
        return self.draw(label).take(16).hex()
