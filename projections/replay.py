"""Replays: the log folded with the same rules as the live game, one frame per event."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import msgspec

from domain import game_state
from domain.aggregate import Recorded
from domain.game_state import GameState
from domain.perspective import Perspective
from projections.events import EventOut, event_out
from projections.views import View, view


class Frame(msgspec.Struct, frozen=True, kw_only=True):
    """One step: the event as the perspective may see it, and the table just after it."""

    version: int
    event: EventOut
    view: View


def frames(
    events: Sequence[Recorded], perspective: Perspective, start: int, stop: int
) -> Iterator[Frame]:
    """Frames for versions ``start..stop`` (inclusive), folding from the first event."""
    state: GameState | None = None
    for recorded in events:
        state = game_state.evolve(state, recorded.payload)
        version = recorded.originator_version
        if version > stop:
            return
        if version >= start:
            yield Frame(
                version=version,
                event=event_out(recorded, perspective),
                view=view(
                    state, version=version, chain_head=recorded.hash, perspective=perspective
                ),
            )
