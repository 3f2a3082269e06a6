"""Who is looking, and the one redaction rule every channel goes through.

Events hold what only some may see in a ``Secret``; ``redact`` empties the ones a perspective
may not see. A variant's table view is built once for everyone with the same kind of marks
(``hidden``: one owner's value; ``own``: each seat's own entry), and ``shown`` opens it for one
perspective. Both walk the value with ``_opened``, and both decide by ``Perspective.sees``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import msgspec

from domain.events import Secret

S = TypeVar("S")
T = TypeVar("T")


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

    def open_secret(secret: Secret[Any]) -> Secret[Any]:
        return secret if perspective.sees(secret.owner) else Secret(owner=secret.owner)

    return cast(S, _opened(value, Secret, open_secret))


class _Hidden:
    """A value in a table view that only ``owner`` may see (None: nobody until the end).

    Not a Struct on purpose: msgspec refuses to encode it, so a view that was never ``shown``
    cannot be served by mistake.
    """

    __slots__ = ("owner", "value")

    def __init__(self, owner: int | None, value: object) -> None:
        self.owner = owner
        self.value = value

    def opened(self, perspective: Perspective) -> object:
        return self.value if perspective.sees(self.owner) else None


class _Own:
    """One entry per seat in a table view, of which a viewer sees its own seat's entry (a
    spectator, even with the full perspective, has none)."""

    __slots__ = ("entries",)

    def __init__(self, entries: Sequence[object]) -> None:
        self.entries = entries

    def opened(self, perspective: Perspective) -> object:
        return None if perspective.seat is None else self.entries[perspective.seat]


def hidden(owner: int | None, value: T) -> T | None:
    """``value`` marked for ``owner``'s eyes in a table view; ``shown`` opens it (the value, or
    None for a perspective that may not see it). Typed as it is served, the mark being the one
    thing ``shown`` replaces."""
    return cast("T | None", _Hidden(owner, value))


def own(entries: Sequence[T]) -> T | None:
    """Each seat's own entry of ``entries`` marked in a table view; ``shown`` gives a viewer
    the entry of its seat (None without one). Typed as it is served, like ``hidden``."""
    return cast("T | None", _Own(entries))


def shown(view: S, perspective: Perspective) -> S:
    """A table view built with ``hidden``/``own`` marks, as ``perspective`` may see it."""
    return cast(S, _opened(view, (_Hidden, _Own), lambda mark: mark.opened(perspective)))


def _opened(value: Any, marks: type | tuple[type, ...], opened: Callable[[Any], Any]) -> Any:
    """``value`` with every mark inside it replaced by ``opened(mark)``; structs and tuples are
    copied only where something inside them changed."""
    if isinstance(value, marks):
        return opened(value)
    if isinstance(value, msgspec.Struct):
        changes = {}
        for field in value.__struct_fields__:
            current = getattr(value, field)
            replaced = _opened(current, marks, opened)
            if replaced is not current:
                changes[field] = replaced
        return msgspec.structs.replace(value, **changes) if changes else value
    if isinstance(value, tuple):
        items = tuple(_opened(item, marks, opened) for item in value)
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    return value
