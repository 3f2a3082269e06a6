"""Table views: built once with marks, opened for a perspective by the one rule (``sees``)."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec
import pytest

from domain.perspective import FULL, PUBLIC, Perspective, hidden, own, shown


class Pile(msgspec.Struct, frozen=True):
    seat: int
    card: str | None


class TableView(msgspec.Struct, frozen=True):
    pile: tuple[Pile, ...]
    mine: tuple[str, ...] | None
    deadline: datetime | None


def table_view() -> TableView:
    return TableView(
        pile=(Pile(seat=0, card="QS"), Pile(seat=1, card=hidden(1, "KD"))),
        mine=own([("2C",), ("3C", "4C"), ()]),
        deadline=datetime(2026, 12, 1, 12, 0, tzinfo=UTC),
    )


@pytest.mark.parametrize(
    ("perspective", "pile_cards", "mine"),
    [
        (PUBLIC, ("QS", None), None),
        (Perspective(seat=0), ("QS", None), ("2C",)),
        (Perspective(seat=1), ("QS", "KD"), ("3C", "4C")),
        (FULL, ("QS", "KD"), None),  # the full view sees every card but has no seat of its own
        (Perspective(seat=2, full=True), ("QS", "KD"), ()),
    ],
)
def test_a_view_is_opened_by_who_sees_what(
    perspective: Perspective, pile_cards: tuple[str | None, ...], mine: tuple[str, ...] | None
) -> None:
    opened = shown(table_view(), perspective)
    assert type(opened) is TableView
    assert tuple(pile.card for pile in opened.pile) == pile_cards
    assert opened.mine == mine
    assert opened.deadline == table_view().deadline


def test_a_view_that_was_never_opened_cannot_be_served() -> None:
    with pytest.raises(TypeError):
        msgspec.json.encode(table_view())


def test_only_marks_are_opened() -> None:
    odd = TableView(pile=(), mine=object(), deadline=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not served"):
        shown(odd, PUBLIC)
