"""The `chain` check: any edit that is not followed by re-hashing the rest of the log is caught
there, first, at the event that was edited (or the one whose link it broke)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.audit.forgeries.finished_game import finished_bundle, indexes, refused
from tests.support.client import served_event_hash

Edit = Callable[[dict[str, Any]], None]


def _other_card(event: dict[str, Any]) -> None:
    event["payload"]["card"] = "2S" if event["payload"]["card"] != "2S" else "3S"


def _other_seat(event: dict[str, Any]) -> None:
    event["actor"] = "seat:1" if event["actor"] != "seat:1" else "seat:2"


def _later(event: dict[str, Any]) -> None:
    event["timestamp"] = event["timestamp"].replace("T12:", "T13:")


def _other_command(event: dict[str, Any]) -> None:
    event["command"]["value"]["card"] = "2S" if event["command"]["value"]["card"] != "2S" else "3S"


def _other_salt(event: dict[str, Any]) -> None:
    event["command"]["salt"] = "00" * 16


# Every field the hash covers (docs/fairness.md §3), and the hash itself.
EDITS: dict[str, Edit] = {
    "payload": _other_card,
    "actor": _other_seat,
    "command_id": lambda event: event.update(command_id="f" * 32),
    "timestamp": _later,
    "command value": _other_command,
    "command salt": _other_salt,
    "command removed": lambda event: event.update(command=None),
    "hash": lambda event: event.update(hash="0" * 64),
}


@pytest.mark.parametrize("field", sorted(EDITS))
def test_an_edited_field_breaks_the_chain_at_that_event(tmp_path: Path, field: str) -> None:
    forged = finished_bundle()
    index = indexes(forged, "CardPlayed")[4]
    EDITS[field](forged["events"][index])
    failed, output = refused(tmp_path, forged)
    assert failed[0] == "chain", output
    assert f"chain: event {index + 1} was altered" in output


def test_an_event_re_hashed_alone_no_longer_links_to_the_next(tmp_path: Path) -> None:
    forged = finished_bundle()
    index = indexes(forged, "CardPlayed")[4]
    event = forged["events"][index]
    _other_card(event)
    # The forger fixes the edited event's own hash, but not the links after it.
    event["hash"] = served_event_hash(forged["game_id"], event, event["prev_hash"])
    failed, output = refused(tmp_path, forged)
    assert failed[0] == "chain", output
    assert f"chain: event {index + 2} does not link to the event before it" in output


def test_a_changed_link_breaks_the_chain(tmp_path: Path) -> None:
    forged = finished_bundle()
    forged["events"][12]["prev_hash"] = forged["events"][10]["hash"]
    failed, output = refused(tmp_path, forged)
    assert failed[0] == "chain", output
    assert "chain: event 13 does not link to the event before it" in output


def test_a_renumbered_event_breaks_the_chain(tmp_path: Path) -> None:
    forged = finished_bundle()
    forged["events"][12]["version"] = 12  # two events claim version 12
    failed, output = refused(tmp_path, forged)
    assert failed[0] == "chain", output
    assert "chain: event 13 is missing or out of order" in output


def test_a_log_passed_off_as_another_games_breaks_the_first_link(tmp_path: Path) -> None:
    forged = finished_bundle()
    forged["game_id"] = "00000000-0000-4000-8000-000000000017"  # the hash covers the game id
    failed, output = refused(tmp_path, forged)
    assert failed[0] == "chain", output
    assert "chain: event 1 was altered" in output
