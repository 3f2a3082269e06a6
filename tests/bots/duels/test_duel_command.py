"""``cardledger duel``: the table it prints and writes between its marks, and its refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.tools.cli import main
from service.tools.duels.duel import END_MARK, START_MARK


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


def test_a_peeking_search_plays_a_deal_and_is_labelled(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["duel", "--variant", "heartbeat", "--levels", "3,2", "--deals", "1", "--jobs", "1"]
    assert main([*args, "--peek"]) == 0
    assert "| heartbeat | 4 | 3 (sees all) v 2 | 1 | 4 |" in capsys.readouterr().out  # its tree
    assert main([*args, "--algorithm", "2"]) == 0
    assert "| heartbeat | 4 | 3 v 2 (algorithm 2) | 1 | 4 |" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("levels", "refusal"),
    [(["--levels", "2,1"], "no search of level 2 to peek with"), ([], "--peek needs --levels")],
)
def test_peeking_needs_a_search_level(
    levels: list[str], refusal: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["duel", "--variant", "heartbeat", *levels, "--peek", "--deals", "1"]) == 2
    assert refusal in capsys.readouterr().err
