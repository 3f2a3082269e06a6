"""The `deals` check: every deal is re-derived from the seed, the game id and the client seeds.
A deal is a decision too, so `decisions` fails at it first; `deals` then names that deal, and
stays quiet about deals made before the first forged event."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.audit.forgeries.finished_game import finished_bundle, indexes, refused
from tests.audit.test_verify import rehash

DEAL = indexes(finished_bundle(), "HandDealt")[0]


def _cards_swapped(events: list[dict[str, Any]]) -> None:
    hands = events[DEAL]["payload"]["hands"]
    hands[0]["value"][0], hands[1]["value"][0] = hands[1]["value"][0], hands[0]["value"][0]


def _stock_reordered(events: list[dict[str, Any]]) -> None:
    events[DEAL]["payload"]["rest"]["value"].reverse()


def _salt_replaced(events: list[dict[str, Any]]) -> None:
    events[DEAL]["payload"]["hands"][2]["salt"] = "00" * 16  # salts come from the stream too


def _client_seed_changed(events: list[dict[str, Any]]) -> None:
    # The seat's own event re-runs fine; the deal it is bound into does not.
    seat_taken = indexes({"events": events}, "SeatTaken")[1]
    events[seat_taken]["payload"]["client_seed"] = "not what seat 1 sent"


FORGERIES: dict[str, Callable[[list[dict[str, Any]]], None]] = {
    "cards swapped between hands": _cards_swapped,
    "undealt stock reordered": _stock_reordered,
    "a hand's salt replaced": _salt_replaced,
    "a client seed changed": _client_seed_changed,
}


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_a_forged_deal_is_not_re_derived(tmp_path: Path, forgery: str) -> None:
    forged = finished_bundle()
    FORGERIES[forgery](forged["events"])
    failed, output = refused(tmp_path, rehash(forged))
    # Later checks may fail too (moved cards cannot be played where the log says): not these.
    assert failed[:2] == ["decisions", "deals"], output
    assert (
        f"decisions: event {DEAL + 1} is not what the rules produce: recorded HandDealt" in output
    )
    assert (
        f"deals: the deal at event {DEAL + 1} could not be re-derived (event {DEAL + 1})" in output
    )


def test_a_forgery_after_the_deal_leaves_the_deal_proven(tmp_path: Path) -> None:
    forged = finished_bundle()
    last_play = indexes(forged, "CardPlayed")[-1]
    forged["events"][last_play]["command"]["value"]["card"] = "QQ"
    failed, output = refused(tmp_path, rehash(forged))
    assert failed == ["decisions"], output
    assert "PASS     deals: 1 deal(s) re-derived from the seed" in output
