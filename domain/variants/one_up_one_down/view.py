"""One Up One Down: the table as served; a face-down card is its player's until turned up."""

from __future__ import annotations

from datetime import datetime

import msgspec

from domain.perspective import hidden, own
from domain.variants.one_up_one_down.messages import (
    EndedBy,
    Facing,
    HighCardDraw,
    OneUpOneDownOptions,
    Rank,
)
from domain.variants.one_up_one_down.table import OneUpOneDownTable, PileCard


class PileCardView(msgspec.Struct, frozen=True, kw_only=True):
    """A pile card; ``card`` is null for a face-down card the viewer may not see."""

    seat: int
    face_down: bool
    declared: Rank | None
    revealed: bool
    card: str | None


class ChallengeView(msgspec.Struct, frozen=True, kw_only=True):
    """The open challenge window after ``seat``'s face-down play."""

    seat: int
    declared: Rank
    target: Rank  # before the play
    deadline: datetime | None
    challenged: tuple[int, ...]
    declined: tuple[int, ...]
    awaiting: tuple[int, ...]


class OneUpOneDownView(msgspec.Struct, frozen=True, kw_only=True):
    to_play: int | None
    facing: Facing  # how the next card is played
    target: Rank
    round: int
    pile: tuple[PileCardView, ...]
    stock_size: int
    challenge: ChallengeView | None
    plays: int
    end_votes: tuple[int, ...]
    first_player_draws: tuple[tuple[HighCardDraw, ...], ...]
    ended_by: EndedBy | None
    options: OneUpOneDownOptions
    taken: tuple[tuple[str, ...], ...]
    """Per seat: the face-up and turned-up cards of the piles it collected that nobody has seen
    played since (one it played face down, never turned up, is still listed)."""
    slipped: tuple[tuple[str, ...], ...] | None
    """Per seat: the viewer's own face-down cards, never turned up, that it collected with a
    pile and nobody has seen played since (a spectator: null)."""


def _pile_card(card: PileCard) -> PileCardView:
    face_up = not card.face_down or card.revealed
    return PileCardView(
        seat=card.seat,
        face_down=card.face_down,
        declared=card.declared,
        revealed=card.revealed,
        card=card.card if face_up else hidden(card.seat, card.card),
    )


def _challenge(table: OneUpOneDownTable) -> ChallengeView | None:
    window = table.window
    if window is None:
        return None
    responders = table.responders()
    return ChallengeView(
        seat=window.seat,
        declared=window.declared,
        target=window.target,
        deadline=window.deadline,
        challenged=tuple(seat for seat in responders if table.answer_of(seat) is True),
        declined=tuple(seat for seat in responders if table.answer_of(seat) is False),
        awaiting=table.awaiting(),
    )


def table_view(table: OneUpOneDownTable) -> OneUpOneDownView:
    return OneUpOneDownView(
        to_play=table.to_play(),
        facing="down" if table.face_down_next else "up",
        target=table.target,
        round=table.round,
        pile=tuple(_pile_card(card) for card in table.pile),
        stock_size=len(table.stock),
        challenge=_challenge(table),
        plays=table.plays,
        end_votes=tuple(seat for seat, voted in enumerate(table.votes) if voted),
        first_player_draws=table.draws,
        ended_by=table.ended_by,
        options=table.options,
        taken=table.taken,
        slipped=own(table.slipped),
    )
