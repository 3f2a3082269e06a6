"""Who is looking, and the one redaction rule every channel goes through."""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

from domain.events import Secret

S = TypeVar("S")


class Perspective(msgspec.Struct, frozen=True):
    """A viewer: a seat (or None for a spectator); ``full`` sees everything."""

    seat: int | None = None
    full: bool = False

    def sees(self, owner: int | None) -> bool:
        return self.full or (owner is not None and owner == self.seat)


PUBLIC = Perspective()
FULL = Perspective(full=True)


def redact(value: S, perspective: Perspective) -> S:
    """``value`` with every Secret the perspective may not see emptied."""
    if perspective.full:
        return value
    return _redact(value, perspective)  # type: ignore[no-any-return]


def _redact(value: Any, perspective: Perspective) -> Any:
    if isinstance(value, Secret):
        if perspective.sees(value.owner):
            return value
        return Secret(owner=value.owner)
    if isinstance(value, msgspec.Struct):
        changes = {}
        for field in value.__struct_fields__:
            current = getattr(value, field)
            redacted = _redact(current, perspective)
            if redacted is not current:
                changes[field] = redacted
        return msgspec.structs.replace(value, **changes) if changes else value
    if isinstance(value, tuple):
        items = tuple(_redact(item, perspective) for item in value)
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    return value
