"""Appending to a tree whose hashes live elsewhere (the store): the right edge is all it takes.

A tree of ``n`` entries is a row of complete subtrees, one for each bit set in ``n``, largest
first; appending an entry only ever combines it with those. ``Frontier`` holds their hashes,
hands back every complete-subtree hash each append creates (what the store keeps), and computes
the root without reading anything else.
"""

from __future__ import annotations

from collections.abc import Iterable

from projections.transparency.merkle import Nodes, empty_root, leaf_hash, node_hash

Node = tuple[int, int, bytes]
"""(level, index, hash) of a complete subtree."""


class Frontier:
    def __init__(self, size: int, edge: dict[int, bytes]) -> None:
        """``edge``: for each bit ``l`` set in ``size``, the hash of the subtree at level ``l``
        ending at the tree's right edge (index ``(size >> l) - 1``)."""
        if set(edge) != {level for level in range(size.bit_length()) if size >> level & 1}:
            raise ValueError(f"a tree of {size} has no right edge {sorted(edge)}")
        self.size = size
        self._edge = dict(edge)

    @classmethod
    def of(cls, nodes: Nodes, size: int) -> Frontier:
        """The right edge of the tree of ``size``, read through ``nodes``."""
        levels = [level for level in range(size.bit_length()) if size >> level & 1]
        return cls(size, {level: nodes(level, (size >> level) - 1) for level in levels})

    def append(self, entries: Iterable[bytes]) -> list[Node]:
        """Add entries; every complete subtree they complete, leaves first, in order."""
        made: list[Node] = []
        for entry in entries:
            hashed, level, index = leaf_hash(entry), 0, self.size
            made.append((0, index, hashed))
            while level in self._edge:  # a left sibling waits at this level: join it
                hashed = node_hash(self._edge.pop(level), hashed)
                level, index = level + 1, index >> 1
                made.append((level, index, hashed))
            self._edge[level] = hashed
            self.size += 1
        return made

    def root(self) -> bytes:
        """RFC 9162's root: the edge's subtrees joined from the smallest up."""
        hashes = [self._edge[level] for level in sorted(self._edge)]
        if not hashes:
            return empty_root()
        root = hashes[0]
        for larger in hashes[1:]:
            root = node_hash(larger, root)
        return root
