"""The expiry mark and the sealed command of a late batch (docs/fairness.md §5, §6), forged on
docs/audit.md's example game: events 9-12 are round 1's timeout, marked, and event 13 is the late
command's own event, carrying it. Each forger re-hashes the chain, so only the `decisions` check
can tell; and the same batch written as logs were before the mark still verifies."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.audit import independent
from tests.audit.forgeries.finished_game import refused
from tests.audit.test_verify import rehash, verify
from tests.audit.worked_example import bundle_text, play

EXPIRED = range(8, 12)  # positions of events 9-12
OWN = 12  # event 13


@cache
def _example() -> str:
    return bundle_text(play())


def example() -> dict[str, Any]:
    bundle: dict[str, Any] = json.loads(_example())
    assert [bundle["events"][i].get("expiry") is not None for i in (7, *EXPIRED, OWN)] == [
        False,
        *[True] * len(EXPIRED),
        False,
    ]
    return copy.deepcopy(bundle)


def test_the_example_verifies(tmp_path: Path) -> None:
    code, output = verify(tmp_path, example())
    assert code == 0, output


def test_the_same_batch_as_written_before_the_mark_still_verifies(tmp_path: Path) -> None:
    # No mark; the command on the batch's first event, salted for the version before the batch.
    legacy = example()
    events = legacy["events"]
    command = events[OWN]["command"]
    events[OWN]["command"] = None
    events[EXPIRED[0]]["command"] = {**command, "salt": salt_of(legacy, "command/8")}
    for index in EXPIRED:
        del events[index]["expiry"]
    code, output = verify(tmp_path, rehash(legacy))
    assert code == 0, output


def test_marks_stripped_but_the_command_left_where_it_was(tmp_path: Path) -> None:
    forged = example()
    for index in EXPIRED:
        del forged["events"][index]["expiry"]
    failed, output = refused(tmp_path, rehash(forged))
    # Read as a log from before the mark, the batch's first event should carry the command.
    assert failed == ["decisions"], output
    assert "event 9 cannot be re-derived" in output


def test_the_command_s_own_event_passed_off_as_the_expiry_s(tmp_path: Path) -> None:
    forged = example()
    forged["events"][OWN]["expiry"] = forged["events"][EXPIRED[0]]["expiry"]
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "decisions", output
    assert "event 9 cannot be re-derived" in output


def test_an_expiry_event_passed_off_as_the_command_s(tmp_path: Path) -> None:
    forged = example()
    del forged["events"][EXPIRED[-1]]["expiry"]
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "decisions", output


def test_another_deadline_in_the_mark(tmp_path: Path) -> None:
    forged = example()
    for index in EXPIRED:
        forged["events"][index]["expiry"] = "2026-03-01T09:00:16Z"
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "decisions", output
    assert "event 9 is not what the rules produce: its expiry mark should be" in output


def test_a_sealed_command_salted_for_the_batch_s_first_version(tmp_path: Path) -> None:
    forged = example()
    forged["events"][OWN]["command"]["salt"] = salt_of(forged, "command/8")
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "decisions", output
    assert "event 13 is not what the rules produce: its sealed command is misplaced" in output


def test_a_forged_top_level_type_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Outside the hash, so the chain cannot catch it: the reader refuses the disagreement.
    forged = example()
    forged["events"][EXPIRED[0]]["type"] = "CardChosen"
    code, output = verify(tmp_path, forged)
    assert code == 2, output
    assert "event 9 is a 'CardChosen', its payload 'ChoiceTimedOut'" in capsys.readouterr().err


def salt_of(bundle: dict[str, Any], label: str) -> str:
    return independent.stream_of(bundle["game_id"], bundle["events"]).salt(label)
