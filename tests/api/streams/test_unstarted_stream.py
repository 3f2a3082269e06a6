"""A live stream whose answer never started (its client went away first) still gives its slot
back: its generator never runs, so only its collection can."""

from __future__ import annotations

import asyncio
import gc
from types import SimpleNamespace
from typing import Any, cast
from uuid import UUID

from litestar import Request

from service.http.allowance import Allowance
from service.http.limits import StreamSlots
from service.http.routes.game_reads import GameReadsController
from service.settings import Limits
from tests.support.client import Api


def test_a_stream_dropped_before_it_started_gives_its_slot_back(api: Api) -> None:
    game_id = UUID(api.started(2))
    slots = StreamSlots(Limits(streams_per_address=1, streams_per_token=0), Allowance(None, print))
    request = cast(
        Request[Any, Any, Any], SimpleNamespace(user=None, client=SimpleNamespace(host="192.0.2.1"))
    )

    async def open_stream() -> object:
        return await GameReadsController.stream.fn(
            None, request, live=api.live, slots=slots, game_id=game_id
        )

    answer = asyncio.run(open_stream())
    assert answer is not None
    del answer  # never sent: the client is gone
    gc.collect()
    give_back = asyncio.run(slots.take(request, None))  # the slot is free again (else: 429)
    give_back()
