"""The `receipt` check: a `{version, chain_head}` a player kept must match the published log
exactly, every one of its 64 hex digits, even when the forger rebuilt the whole chain."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.audit.forgeries.finished_game import finished_bundle, refused
from tests.audit.test_verify import rehash, verify


def receipt(version: int, head: str) -> str:
    return f"{version}:{head}"


def test_a_genuine_receipt_passes(tmp_path: Path) -> None:
    bundle = finished_bundle()
    event = bundle["events"][10]
    code, output = verify(tmp_path, bundle, receipt(event["version"], event["hash"]))
    assert code == 0, output
    assert "PASS     receipt: event 11 matches the receipt" in output


@pytest.mark.parametrize("digit", [0, 12, 40, 63])
def test_a_receipt_off_by_one_hex_digit_fails(tmp_path: Path, digit: int) -> None:
    # Digit 12 and later: a comparison of a short prefix (what a shortened display shows)
    # would let these through.
    bundle = finished_bundle()
    event = bundle["events"][10]
    head = event["hash"]
    wrong = head[:digit] + ("0" if head[digit] != "0" else "1") + head[digit + 1 :]
    failed, output = refused(tmp_path, bundle, receipt(event["version"], wrong))
    assert failed == ["receipt"], output
    assert "receipt: event 11 hashes to" in output


def test_a_receipt_for_an_event_the_log_lacks_fails(tmp_path: Path) -> None:
    bundle = finished_bundle()
    truncated = finished_bundle()
    del truncated["events"][-1]  # the forger hides how the game ended
    last = bundle["events"][-1]
    failed, output = refused(tmp_path, truncated, receipt(last["version"], last["hash"]))
    assert failed == ["receipt"], output
    assert f"receipt: the log has no event {last['version']}" in output


def test_a_rebuilt_chain_is_caught_by_a_receipt_kept_after_the_edit(tmp_path: Path) -> None:
    bundle = finished_bundle()
    before, after = bundle["events"][10], bundle["events"][20]
    forged = finished_bundle()
    forged["events"][15]["timestamp"] = forged["events"][15]["timestamp"].replace("T12:", "T13:")
    forged = rehash(forged)  # a timestamp no rule reads: only receipts can tell
    code, output = verify(tmp_path, forged, receipt(before["version"], before["hash"]))
    assert code == 0, output
    failed, output = refused(tmp_path, forged, receipt(after["version"], after["hash"]))
    assert failed == ["receipt"], output
    assert "receipt: event 21 hashes to" in output
