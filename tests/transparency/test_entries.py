"""The entries' canonical encoding (docs/transparency.md), the frontier that appends them, and
entry bundles."""

from __future__ import annotations

from uuid import UUID

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from projections.transparency.entries import (
    EntryError,
    GameCreatedEntry,
    GameEndedEntry,
    decode,
)
from projections.transparency.frontier import Frontier
from projections.transparency.merkle import Tree, empty_root
from projections.transparency.tiles import bundle_entries, entry_bundle

GAME = UUID("0b7c7c1e-6a35-4bd5-9f0a-1f2e3d4c5b6a")
HEX = "ab" * 32


def test_a_creation_entry_is_its_documented_lines() -> None:
    entry = GameCreatedEntry(GAME, "open-hand", HEX)
    assert entry.encode() == (
        b"cardledger/game-created/v1\n"
        b"game 0b7c7c1e-6a35-4bd5-9f0a-1f2e3d4c5b6a\n"
        b"variant open-hand\n"
        b"commitment " + HEX.encode() + b"\n"
    )
    assert decode(entry.encode()) == entry


def test_an_end_entry_is_its_documented_lines() -> None:
    entry = GameEndedEntry(GAME, "cancelled", 7, HEX)
    assert entry.encode() == (
        b"cardledger/game-ended/v1\n"
        b"game 0b7c7c1e-6a35-4bd5-9f0a-1f2e3d4c5b6a\n"
        b"status cancelled\n"
        b"version 7\n"
        b"head " + HEX.encode() + b"\n"
    )
    assert decode(entry.encode()) == entry


@pytest.mark.parametrize(
    "data",
    [
        GameEndedEntry(GAME, "won", 7, HEX).encode(),  # no such ending
        GameEndedEntry(GAME, "finished", 7, HEX.upper()).encode(),  # hex in capitals
        GameEndedEntry(GAME, "finished", 0, HEX).encode(),  # no game ends at version 0
        GameCreatedEntry(GAME, "Open Hand", HEX).encode(),
        GameCreatedEntry(GAME, "open-hand", HEX[:-2]).encode(),
        GameCreatedEntry(GAME, "open-hand", HEX).encode()[:-1],  # no last newline
        GameCreatedEntry(GAME, "open-hand", HEX).encode().replace(b"0b7c", b"0B7C"),
        GameEndedEntry(GAME, "finished", 7, HEX).encode().replace(b"version 7", b"version 07"),
        b"cardledger/game-created/v2\ngame x\n",
        b"\xff\n",
    ],
)
def test_anything_but_the_canonical_bytes_is_refused(data: bytes) -> None:
    with pytest.raises(EntryError):
        decode(data)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.binary(max_size=40), max_size=70), st.data())
def test_the_frontier_grows_the_same_tree_as_a_whole_tree(
    entries: list[bytes], data: st.DataObject
) -> None:
    tree = Tree()
    for entry in entries:
        tree.append(entry)
    start = data.draw(st.integers(0, len(entries)))
    whole = Tree()
    for entry in entries[:start]:
        whole.append(entry)
    frontier = Frontier.of(whole.node, start)
    made = frontier.append(entries[start:])
    assert frontier.size == len(entries)
    assert frontier.root() == (tree.root() if entries else empty_root())
    expected = [
        (level, index)
        for level, hashes in enumerate(tree.levels)
        for index in range(len(hashes))
        if index >= len(whole.levels[level] if level < len(whole.levels) else [])
    ]
    assert sorted((level, index) for level, index, _ in made) == sorted(expected)
    assert all(tree.node(level, index) == hashed for level, index, hashed in made)


def test_a_frontier_refuses_an_edge_that_does_not_fit_its_size() -> None:
    with pytest.raises(ValueError):
        Frontier(3, {0: HEX.encode()})


def test_an_entry_bundle_holds_its_entries_in_order() -> None:
    entries = [b"", b"a", b"x" * 300]
    bundle = entry_bundle(entries)
    assert bundle[:3] == b"\x00\x00\x00"
    assert bundle_entries(bundle) == entries
    with pytest.raises(ValueError):
        bundle_entries(bundle[:-1])
