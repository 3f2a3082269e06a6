"""``cardledger duel``: the table it prints and writes between its marks, and its refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.tools.cli import main
from service.tools.duel import END_MARK, START_MARK


def test_the_table_is_printed_and_written_between_the_marks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "bots.md"
    doc.write_text(f"# Bots\n\nbefore\n{START_MARK}\nold table\n{END_MARK}\nafter\n")
    code = main(
        [
            "duel",
            "--variant",
            "open-hand",
            "--levels",
            "1,1",
            "--deals",
            "3",
            "--jobs",
            "1",
            "--output",
            str(doc),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "| open-hand | 4 | 1 v 1 | 3 | 12 | 50.0% | 50.0% – 50.0% |" in printed
    written = doc.read_text()
    assert "old table" not in written
    assert written.startswith("# Bots\n\nbefore\n") and written.endswith(f"{END_MARK}\nafter\n")
    assert printed in written


def test_an_unknown_level_is_refused_before_any_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["duel", "--variant", "heartbeat", "--levels", "9,1", "--deals", "1"]) == 2
    assert "heartbeat has no bot of level 9" in capsys.readouterr().err
