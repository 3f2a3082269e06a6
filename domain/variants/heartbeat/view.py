"""What each perspective sees of a Heartbeat table: who has chosen, never what, until shown."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.perspective import hidden
from domain.variants.heartbeat.messages import HeartbeatOptions, Tempo
from domain.variants.heartbeat.table import ROUNDS, HeartbeatTable, RoundRecord


class ShownCardView(msgspec.Struct, frozen=True, kw_only=True):
    """A revealed card; ``card`` is None where only the rank was shown to this viewer."""

    round: int
    seat: int
    rank: str
    card: str | None


class HeartbeatView(msgspec.Struct, frozen=True, kw_only=True):
    """A Heartbeat table as one perspective sees it. ``chosen`` says only WHO has chosen;
    ``choices`` holds the cards the viewer may see (its own; every one for the full view)."""

    round: int
    rounds_total: int
    phase: Literal["reveal", "choose", "over"]
    tempo: Tempo | None
    tempo_cards_left: int
    shown: tuple[ShownCardView, ...]
    chosen: tuple[bool, ...]
    choices: tuple[str | None, ...]
    rounds: tuple[RoundRecord, ...]
    chips: tuple[int, ...]
    options: HeartbeatOptions


def table_view(table: HeartbeatTable) -> HeartbeatView:
    public_cards = table.options.reveal_shows == "card"
    shown = tuple(
        ShownCardView(
            round=reveal.round,
            seat=reveal.seat,
            rank=reveal.rank,
            card=reveal.card if public_cards else hidden(reveal.seat, reveal.card),
        )
        for reveal in table.reveals
    )
    phase: Literal["reveal", "choose", "over"] = (
        "over" if table.over else "reveal" if table.revealing else "choose"
    )
    return HeartbeatView(
        round=table.round,
        rounds_total=ROUNDS,
        phase=phase,
        tempo=table.tempo,
        tempo_cards_left=len(table.tempo_deck),
        shown=shown,
        chosen=tuple(card is not None for card in table.chosen),
        choices=tuple(hidden(seat, card) for seat, card in enumerate(table.chosen)),
        rounds=table.rounds,
        chips=table.chips,
        options=table.options,
    )
