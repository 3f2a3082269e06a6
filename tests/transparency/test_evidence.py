"""The entries after a game's creation, proven against the signed root from the right edge of
the tree ending with it (what shows a game's end missing from the log), at every index of
trees of every small size; one changed entry or edge hash proves nothing."""

from __future__ import annotations

import base64
from uuid import UUID

import pytest

from projections.transparency.entries import GameCreatedEntry
from projections.transparency.evidence import NotProven, later_entries, logged_entry
from projections.transparency.monitor import game_evidence
from tests.transparency.test_witness import LOG, signed, tree


def created(number: int) -> bytes:
    return GameCreatedEntry(UUID(int=number), "open-hand", f"{number:064x}").encode()


@pytest.mark.parametrize("size", range(1, 18))
def test_the_entries_after_each_index_make_the_signed_root_and_nothing_else_does(
    size: int,
) -> None:
    entries = [created(number) for number in range(size)]
    note = signed(tree(entries), size)
    for index in range(size):
        evidence = game_evidence(note, entries, index, None, later=True)
        logged = logged_entry(
            note, index, evidence["entry"], evidence["inclusion_proof"], LOG.verifier()
        )
        later = later_entries(logged, evidence["edge"], evidence["later_entries"])
        assert [entry.encode() for entry in later] == entries[index + 1 :]
        if index + 1 < size:
            changed = [created(size).decode(), *evidence["later_entries"][1:]]
            with pytest.raises(NotProven, match="do not make the signed tree"):
                later_entries(logged, evidence["edge"], changed)
            with pytest.raises(NotProven, match="do not make the signed tree"):
                later_entries(logged, evidence["edge"], evidence["later_entries"][1:])
        level = max(evidence["edge"])
        edge = {**evidence["edge"], level: base64.b64encode(bytes(32)).decode()}
        with pytest.raises(NotProven, match="do not make the signed tree"):
            later_entries(logged, edge, evidence["later_entries"])
