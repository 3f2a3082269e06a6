"""Statement texts filled in once (service/store/statements.py)."""

from __future__ import annotations

import pytest

from service.store import statements
from service.store.statements import Statements


def test_names_and_placeholders_are_filled_in() -> None:
    sql = Statements({"games": '"s".readmodel_games', "p": "%s"})
    assert (
        sql("SELECT * FROM {games} WHERE id = {p}")
        == 'SELECT * FROM "s".readmodel_games WHERE id = %s'
    )


def test_a_text_is_filled_in_once() -> None:
    class Counting(dict[str, str]):
        looked_up = 0

        def __getitem__(self, key: str) -> str:
            Counting.looked_up += 1
            return super().__getitem__(key)

    sql = Statements({"t": "x"})
    sql._names = Counting(t="x")  # counts what format_map reads
    first = sql("SELECT {t}")
    again = sql("SELECT {t}")
    assert first is again
    assert Counting.looked_up == 1


def test_past_the_memo_s_size_texts_are_still_filled_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(statements, "MOST", 2)
    sql = Statements({"t": "x"})
    assert [sql(f"SELECT {{t}}, {n}") for n in range(4)] == [f"SELECT x, {n}" for n in range(4)]
    assert len(sql._filled) == 2
