"""Rejection sampling at its boundary (docs/fairness.md §2: accept `w < limit`, never `w = limit`).

A real stream meets a word at or above the limit about once in 2^32 draws, far too rarely for a
test to see, so these draws read scripted words instead of HMAC blocks.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from domain.fairness import Draw

WORD = 1 << 32


class ScriptedDraw(Draw):
    """A Draw whose byte stream is the given 32-bit words, and nothing after them."""

    def __init__(self, words: Iterable[int]) -> None:
        super().__init__(key=b"unused", prefix=b"unused")
        self._script = b"".join(word.to_bytes(4, "big") for word in words)

    def take(self, count: int) -> bytes:
        if len(self._script) < count:
            raise AssertionError("the draw read past its scripted words")
        taken, self._script = self._script[:count], self._script[count:]
        return taken

    @property
    def unread_words(self) -> int:
        return len(self._script) // 4


def limit(bound: int) -> int:
    return WORD - (WORD % bound)


@pytest.mark.parametrize("bound", [3, 6, 7, 52, 104, 1_000_003])
def test_the_limit_word_itself_is_rejected(bound: int) -> None:
    # 2^32 is no multiple of these bounds, so limit < 2^32 and the limit word is a real word.
    draw = ScriptedDraw([limit(bound), 5])
    assert draw.below(bound) == 5 % bound, "the word equal to the limit was accepted"
    assert draw.unread_words == 0


@pytest.mark.parametrize("bound", [3, 6, 52])
def test_every_word_from_the_limit_up_is_rejected(bound: int) -> None:
    rejected = list(range(limit(bound), WORD))  # 2^32 mod bound words: 1, 4 and 48 here
    draw = ScriptedDraw([*rejected, limit(bound) - 1])
    assert draw.below(bound) == (limit(bound) - 1) % bound == bound - 1
    assert draw.unread_words == 0


@pytest.mark.parametrize("bound", [3, 6, 52])
def test_the_word_just_below_the_limit_is_accepted(bound: int) -> None:
    draw = ScriptedDraw([limit(bound) - 1, 0])
    assert draw.below(bound) == bound - 1
    assert draw.unread_words == 1  # nothing rejected: the second word is still there


@pytest.mark.parametrize("bound", [1, 2, 64, WORD])
def test_bounds_dividing_2_to_the_32_reject_nothing(bound: int) -> None:
    draw = ScriptedDraw([WORD - 1])
    assert draw.below(bound) == (WORD - 1) % bound


def test_a_shuffle_redraws_past_a_limit_word() -> None:
    # Fisher-Yates over 3 items: for i = 2 the limit word is drawn again and 0 swaps "c" to
    # the front; for i = 1, 1 leaves "b" where it is.
    draw = ScriptedDraw([limit(3), 0, 1])
    assert draw.shuffle(["a", "b", "c"]) == ("c", "b", "a")
    assert draw.unread_words == 0
