"""The committed golden replays: today's rules replay them byte for byte, and they still verify."""

from __future__ import annotations

import pytest

from projections.audit import audit
from service.application.bundle import read_bundle
from tests.golden import GOLDEN, SCRIPTS, as_bundle, play, render


@pytest.mark.parametrize("variant", sorted(SCRIPTS))
def test_the_scripted_game_replays_exactly(variant: str) -> None:
    committed = (GOLDEN / f"{variant}.jsonl").read_bytes()
    replayed = render(play(variant))
    assert replayed == committed, f"{variant} changed: run `make golden` and review the diff"


@pytest.mark.parametrize("variant", sorted(SCRIPTS))
def test_the_committed_log_still_verifies(variant: str) -> None:
    game_id, events = read_bundle(as_bundle((GOLDEN / f"{variant}.jsonl").read_bytes()))
    report = audit(game_id, events)
    assert report.verdict == "valid", [c for c in report.checks if c.status != "pass"]
