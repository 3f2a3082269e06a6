"""Numbers written by clients: only ASCII digits, and not too many of them."""

from __future__ import annotations

MAX_DIGITS = 18  # any version, seat or position fits; int() refuses 4,300 digits and more


def whole_number(text: str) -> int | None:
    """``text`` as a non-negative whole number, or None. ``str.isdigit`` alone accepts "²" and
    "٠" (which ``int`` then refuses or reads as 0), so only ASCII digits count."""
    if not 1 <= len(text) <= MAX_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    return int(text)
