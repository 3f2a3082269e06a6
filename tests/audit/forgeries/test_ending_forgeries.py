"""The `scores` and `final_head` checks: the final scores and winners are the rules' own, and
nothing follows the event that ended the game. Both are decisions as well, so `decisions`
fails first; these tests pin down that the named check fails too, and no other."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from tests.audit.forgeries.finished_game import cancelled_bundle, finished_bundle, indexes, refused
from tests.audit.test_verify import rehash


def test_a_raised_score(tmp_path: Path) -> None:
    forged = finished_bundle()
    final = forged["events"][-1]["payload"]
    final["scores"][0] += 1
    failed, output = refused(tmp_path, rehash(forged))
    assert failed == ["decisions", "scores"], output
    assert "scores: the final scores or winners differ from the rules applied to the log" in output


def test_a_changed_winner(tmp_path: Path) -> None:
    forged = finished_bundle()
    final = forged["events"][-1]["payload"]
    final["winners"] = [(final["winners"][0] + 1) % 3]  # the scores are left as they were
    failed, output = refused(tmp_path, rehash(forged))
    assert failed == ["decisions", "scores"], output
    assert "scores: the final scores or winners differ" in output


def test_a_dropped_trick(tmp_path: Path) -> None:
    forged = finished_bundle()
    del forged["events"][indexes(forged, "TrickWon")[-1]]
    failed, output = refused(tmp_path, rehash(forged))
    assert failed == ["decisions", "scores"], output


def appended(bundle: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    bundle["events"].append(event)
    return rehash(bundle)


def cancellation_after(bundle: dict[str, Any]) -> dict[str, Any]:
    """An operator's GameCancelled, as if sent once the game was already over."""
    last = bundle["events"][-1]
    return {
        **copy.deepcopy(last),
        "actor": "admin",
        "command_id": "f" * 32,
        "command": None,
        "type": "GameCancelled",
        "payload": {"type": "GameCancelled", "by": "admin", "seed": last["payload"]["seed"]},
    }


def test_a_second_ending_appended(tmp_path: Path) -> None:
    # The appended event is an ending, so a look at the last event alone sees nothing wrong.
    forged = finished_bundle()
    forged = appended(forged, copy.deepcopy(forged["events"][-1]))
    failed, output = refused(tmp_path, forged)
    assert failed == ["decisions", "final_head"], output
    assert "final_head: events were appended after the game ended (event 28)" in output


def test_a_cancellation_appended_to_a_finished_game(tmp_path: Path) -> None:
    forged = finished_bundle()
    forged = appended(forged, cancellation_after(forged))
    failed, output = refused(tmp_path, forged)
    assert failed == ["decisions", "final_head"], output
    assert "decisions: event 29 breaks the rules: this game is over" in output
    assert "final_head: events were appended after the game ended (event 28)" in output


def test_a_second_ending_appended_to_a_cancelled_game(tmp_path: Path) -> None:
    forged = cancelled_bundle()
    end = len(forged["events"])
    forged = appended(forged, copy.deepcopy(forged["events"][-1]))
    failed, output = refused(tmp_path, forged)
    assert failed == ["decisions", "final_head"], output
    assert f"final_head: events were appended after the game ended (event {end})" in output


def test_a_play_appended_after_the_end(tmp_path: Path) -> None:
    # Not an ending: the game is still over (at event 28), so the audit must not call it
    # pending, but refuse what follows the end.
    forged = finished_bundle()
    forged = appended(forged, copy.deepcopy(forged["events"][indexes(forged, "CardPlayed")[-1]]))
    failed, output = refused(tmp_path, forged)
    assert failed == ["decisions", "final_head"], output
    assert "PENDING" not in output
    assert "final_head: events were appended after the game ended (event 28)" in output
