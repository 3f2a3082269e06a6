"""Tiles: paths as tlog-tiles writes them, widths at the tree's right edge, and proofs computed
from nothing but tiles equal to those from the whole tree."""

from __future__ import annotations

import pytest

from projections.transparency.merkle import (
    Tree,
    consistency_proof,
    inclusion_proof,
    root,
)
from projections.transparency.tiles import tile_data, tile_path, tile_width, tiled_nodes


@pytest.mark.parametrize(
    ("level", "index", "width", "path"),
    [
        (0, 0, 256, "tile/0/000"),
        (0, 1234067, 256, "tile/0/x001/x234/067"),
        (1, 5, 17, "tile/1/005.p/17"),
        ("entries", 1000, 256, "tile/entries/x001/000"),
    ],
)
def test_paths(level: int | str, index: int, width: int, path: str) -> None:
    assert tile_path(level, index, width) == path


def test_widths_at_the_right_edge() -> None:
    size = 256 * 256 + 3 * 256 + 5
    assert tile_width(size, 0, 0) == 256
    assert tile_width(size, 0, 259) == 5
    assert tile_width(size, 0, 260) == 0
    assert tile_width(size, 1, 0) == 256
    assert tile_width(size, 1, 1) == 3
    assert tile_width(size, 2, 0) == 1


def test_proofs_from_tiles_equal_proofs_from_the_tree() -> None:
    tree = Tree()
    size = 256 * 3 + 77
    for n in range(size):
        tree.append(f"entry {n}".encode())

    def fetch(level: int, index: int) -> bytes:
        return tile_data(tree.node, size, level, index)

    tiled = tiled_nodes(fetch)
    assert root(tiled, size) == tree.root()
    for index in (0, 1, 255, 256, 700, size - 1):
        assert inclusion_proof(tiled, index, size) == tree.inclusion_proof(index)
    for first in (1, 255, 256, 513, size - 1):
        assert consistency_proof(tiled, first, size) == tree.consistency_proof(first)
