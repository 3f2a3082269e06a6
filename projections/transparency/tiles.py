"""The tree served as C2SP tlog-tiles: fixed paths of 256 hashes each, so a log is static files a
cache can hold, and a client reads any proof's hashes from a handful of tiles.

A tile at level ``L``, index ``N`` holds the hashes of the tree's nodes at height ``8·L`` numbered
``256·N`` to ``256·N + W - 1`` (``W`` = 256 for a full tile, fewer for the partial tile at the
right edge, served at ``….p/<W>``); paths write ``N`` in groups of three digits, all but the last
prefixed by ``x`` (``tile/0/x001/234``). Entries are served the same way (``tile/entries/…``).
"""

from __future__ import annotations

from collections.abc import Callable

from projections.transparency.merkle import HASH_SIZE, Nodes, node_hash

HEIGHT = 8
WIDTH = 1 << HEIGHT


def encoded_index(index: int) -> str:
    digits = f"{index:03d}"
    digits = "0" * (-len(digits) % 3) + digits
    groups = [digits[at : at + 3] for at in range(0, len(digits), 3)]
    return "/".join([*(f"x{group}" for group in groups[:-1]), groups[-1]])


def tile_path(level: int | str, index: int, width: int = WIDTH) -> str:
    """``level`` is a number, or ``"entries"`` for entry bundles."""
    partial = "" if width == WIDTH else f".p/{width}"
    return f"tile/{level}/{encoded_index(index)}{partial}"


def tile_width(size: int, level: int, index: int) -> int:
    """How many hashes tile (``level``, ``index``) holds in a tree of ``size`` (0: none yet)."""
    count = size >> (HEIGHT * level)
    return max(0, min(WIDTH, count - index * WIDTH))


def tile_data(nodes: Nodes, size: int, level: int, index: int) -> bytes:
    width = tile_width(size, level, index)
    height = HEIGHT * level
    return b"".join(nodes(height, index * WIDTH + at) for at in range(width))


def tiled_nodes(fetch: Callable[[int, int], bytes]) -> Nodes:
    """A client's view of the tree from its tiles: ``fetch(level, index)`` returns that tile's
    bytes (as wide as the client's tree holds); a node between two tile levels is hashed up from
    the tile level below it."""

    def node(height: int, index: int) -> bytes:
        level, above = divmod(height, HEIGHT)
        span = 1 << above
        first = index * span
        tile = fetch(level, first // WIDTH)
        at = first % WIDTH
        hashes = [tile[(at + n) * HASH_SIZE : (at + n + 1) * HASH_SIZE] for n in range(span)]
        if any(len(found) != HASH_SIZE for found in hashes):
            raise LookupError(f"tile {level}/{first // WIDTH} lacks node {height}/{index}")
        while len(hashes) > 1:
            hashes = [node_hash(hashes[n], hashes[n + 1]) for n in range(0, len(hashes), 2)]
        return hashes[0]

    return node
