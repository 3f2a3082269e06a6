"""Every variant says which events start its deadlines, and each records the deadline."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec
import pytest

from domain.events import GameStarted, Secret
from domain.variants import DEADLINE_EVENTS, VARIANTS, deadline_started
from domain.variants.heartbeat.messages import TempoCardFlipped
from domain.variants.one_up_one_down.messages import CardPlayedFaceDown


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=lambda v: v.id)
def test_deadline_events_belong_to_the_variant_and_carry_a_deadline(variant: object) -> None:
    for kind in variant.deadline_events:  # type: ignore[attr-defined]
        assert kind in variant.events  # type: ignore[attr-defined]
        fields = {field.name: field for field in msgspec.structs.fields(kind)}
        assert "deadline" in fields, kind


def test_timed_variants_declare_their_deadline_events() -> None:
    timed = {v.id for v in VARIANTS.values() if v.deadline_events}
    assert timed == {"heartbeat", "one-up-one-down"}


def test_deadline_started_reads_only_declared_events() -> None:
    at = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    flipped = TempoCardFlipped(round=1, tempo="pressure", deadline=at)
    face_down = CardPlayedFaceDown(
        seat=0, card=Secret(owner=0, value="7H"), declared="8", target="3", deadline=at
    )
    assert {type(flipped), type(face_down)} == DEADLINE_EVENTS
    assert deadline_started(flipped) == deadline_started(face_down) == at
    assert deadline_started(msgspec.structs.replace(flipped, deadline=None)) is None
    assert deadline_started(GameStarted(seat_count=2)) is None
