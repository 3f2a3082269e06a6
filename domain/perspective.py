"""Who is looking, and the one rule every channel goes through: ``Perspective.sees``.

Events hold what only some may see in a ``Secret``; ``redact`` empties the ones a perspective may
not see. A variant's table view is built once for everyone with marks of the same kind
(``hidden``: one owner's value; ``own``: each seat's own entry), and ``shown`` opens them for one
perspective.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypeVar, cast

import msgspec

from domain.events import Secret

S = TypeVar("S")
T = TypeVar("T")
V = TypeVar("V", bound=msgspec.Struct)


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


def shown(view: V, perspective: Perspective) -> V:
    """A table view built with ``hidden``/``own`` marks, as ``perspective`` may see it.

    msgspec walks the view (in C: a Python walk costs several times the view's building) and
    asks ``opened`` what each mark becomes; the result is read back into the view's own type. A
    view without a mark (everything on it public) is served as it was built.
    """
    marks = 0

    def opened(mark: object) -> object:
        nonlocal marks
        if isinstance(mark, _Hidden | _Own):
            marks += 1
            return mark.opened(perspective)
        raise TypeError(f"a table view holds {type(mark).__name__}, which is not served")

    plain = msgspec.to_builtins(view, builtin_types=(datetime,), enc_hook=opened)
    return msgspec.convert(plain, type(view)) if marks else view
