"""``kept``: a property of an immutable value worked out on first use and kept on the value."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

Owner = TypeVar("Owner")
R = TypeVar("R")


class kept(Generic[Owner, R]):  # noqa: N801 - used as a decorator, like property
    """A property of a frozen ``msgspec.Struct`` made with ``dict=True``: worked out on first
    use and stored in the value's ``__dict__``, which answers every later read (an attribute
    there comes before a descriptor without ``__set__``, as this one is).

    ``functools.cached_property`` does the same, but on Python 3.11 under a lock that its every
    first use takes, which costs more than most of what is kept here. Two threads may both work
    a value out at once: they get equal values, the value being immutable."""

    def __init__(self, work_out: Callable[[Owner], R]) -> None:
        self._work_out = work_out
        self._name = work_out.__name__
        self.__doc__ = work_out.__doc__

    @overload
    def __get__(self, instance: None, owner: type[Any]) -> kept[Owner, R]: ...

    @overload
    def __get__(self, instance: Owner, owner: type[Any]) -> R: ...

    def __get__(self, instance: Owner | None, owner: type[Any]) -> kept[Owner, R] | R:
        if instance is None:
            return self
        value = self._work_out(instance)
        instance.__dict__[self._name] = value
        return value
