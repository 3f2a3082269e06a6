"""Live stream slots, close to the code: a slot given back twice (its stream's end, then its
collection) is given back once, so a client never holds more streams than its limit."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest
from litestar import Request

from service.errors import ApiError
from service.http.limits import StreamSlots
from service.settings import NO_LIMITS, Limits


def request_from(host: str) -> Request[Any, Any, Any]:
    return cast(Request[Any, Any, Any], SimpleNamespace(client=SimpleNamespace(host=host)))


@pytest.mark.parametrize(
    ("limits", "holder"),
    [
        (Limits(streams_per_address=2, streams_per_token=0), None),
        (Limits(streams_per_address=0, streams_per_token=2), "player-1"),
    ],
)
def test_a_slot_given_back_twice_is_given_back_once(limits: Limits, holder: str | None) -> None:
    slots = StreamSlots(limits)
    client = request_from("192.0.2.1")
    first = slots.take(client, holder)
    slots.take(client, holder)
    first()
    first()  # the stream ended, then was collected
    slots.take(client, holder)
    with pytest.raises(ApiError) as refused:
        slots.take(client, holder)
    assert (refused.value.status, refused.value.code) == (429, "too_many_streams")


def test_slots_are_counted_per_client() -> None:
    slots = StreamSlots(Limits(streams_per_address=1, streams_per_token=1))
    mine = slots.take(request_from("192.0.2.1"), "player-1")
    slots.take(request_from("192.0.2.2"), "player-2")
    with pytest.raises(ApiError):
        slots.take(request_from("192.0.2.1"), "player-3")  # the address is full
    with pytest.raises(ApiError):
        slots.take(request_from("192.0.2.3"), "player-1")  # the holder is full
    mine()
    slots.take(request_from("192.0.2.1"), "player-1")


def test_no_limit_no_count() -> None:
    slots = StreamSlots(NO_LIMITS)
    for _ in range(100):
        slots.take(request_from("192.0.2.1"), "player-1")
