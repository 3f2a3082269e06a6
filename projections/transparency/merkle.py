"""RFC 9162 §2.1 Merkle trees: leaf and node hashes with distinct prefixes, inclusion and
consistency proofs, and their verification.

Written here rather than taken from a library: no maintained Python package computes both proofs
over a tree whose hashes live in our own store (tile by tile), and the whole of it is the short
recursions of the RFC. A tree is read through ``Nodes``: the hash of any complete subtree (level
``l``, index ``i``: leaves ``i·2^l`` to ``(i+1)·2^l``), so proofs cost O(log n) reads whatever
the size of the log.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

HASH_SIZE = 32
LEAF = b"\x00"
NODE = b"\x01"

Nodes = Callable[[int, int], bytes]
"""(level, index) -> the hash of that complete subtree."""


class ProofError(ValueError):
    """A proof that does not prove what it is offered for."""


def leaf_hash(entry: bytes) -> bytes:
    return hashlib.sha256(LEAF + entry).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(NODE + left + right).digest()


def empty_root() -> bytes:
    return hashlib.sha256(b"").digest()


def split(size: int) -> int:
    """The largest power of two below ``size`` (``size`` ≥ 2): where the RFC splits a tree."""
    return 1 << ((size - 1).bit_length() - 1)


def range_hash(nodes: Nodes, start: int, end: int) -> bytes:
    """MTH of leaves ``start`` to ``end`` (exclusive), ``start`` aligned as the RFC's recursion
    leaves it (a multiple of the largest power of two not above ``end - start``)."""
    size = end - start
    if size & (size - 1) == 0:  # a complete subtree: one stored hash
        level = size.bit_length() - 1
        return nodes(level, start >> level)
    k = split(size)
    return node_hash(range_hash(nodes, start, start + k), range_hash(nodes, start + k, end))


def root(nodes: Nodes, size: int) -> bytes:
    return empty_root() if size == 0 else range_hash(nodes, 0, size)


def inclusion_proof(nodes: Nodes, index: int, size: int) -> list[bytes]:
    """PATH(index, D[size]) of RFC 9162 §2.1.3.1, leaf first."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size}")
    path: list[bytes] = []
    start, end = 0, size
    while end - start > 1:
        k = split(end - start)
        if index < start + k:
            path.append(range_hash(nodes, start + k, end))
            end = start + k
        else:
            path.append(range_hash(nodes, start, start + k))
            start += k
    return path[::-1]


def consistency_proof(nodes: Nodes, first: int, second: int) -> list[bytes]:
    """PROOF(first, D[second]) of RFC 9162 §2.1.4.1 (empty when ``first`` is 0 or ``second``)."""
    if not 0 <= first <= second:
        raise ValueError(f"no consistency from {first} to {second}")
    if first in (0, second):
        return []
    path: list[bytes] = []
    start, end, complete = 0, second, True
    while first - start != end - start or not complete:
        if first - start == end - start:  # SUBPROOF(m, D[m], false)
            path.append(range_hash(nodes, start, end))
            break
        k = split(end - start)
        if first - start <= k:
            path.append(range_hash(nodes, start + k, end))
            end = start + k
        else:
            path.append(range_hash(nodes, start, start + k))
            start, complete = start + k, False
    return path[::-1]


def verify_inclusion(
    entry_hash: bytes, index: int, size: int, proof: Sequence[bytes], expected_root: bytes
) -> None:
    """RFC 9162 §2.1.3.2: raises ProofError unless ``proof`` puts the leaf at ``index`` of the
    tree of ``size`` whose root is ``expected_root``."""
    if not 0 <= index < size:
        raise ProofError(f"leaf {index} is not in a tree of {size}")
    fn, sn, hashed = index, size - 1, entry_hash
    for sibling in proof:
        if sn == 0:
            raise ProofError("the proof is longer than the tree is deep")
        if fn & 1 or fn == sn:
            hashed = node_hash(sibling, hashed)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            hashed = node_hash(hashed, sibling)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError("the proof is shorter than the tree is deep")
    if hashed != expected_root:
        raise ProofError("the proof leads to another root")


def verify_consistency(
    first: int, second: int, first_root: bytes, second_root: bytes, proof: Sequence[bytes]
) -> None:
    """RFC 9162 §2.1.4.2: raises ProofError unless the tree of ``second`` with ``second_root``
    extends the tree of ``first`` with ``first_root``."""
    if not 0 <= first <= second:
        raise ProofError(f"a tree of {second} cannot extend one of {first}")
    if first == second:
        if proof or first_root != second_root:
            raise ProofError("trees of one size with different roots (or a needless proof)")
        return
    if first == 0:
        if proof:
            raise ProofError("every tree extends the empty one: no proof is needed")
        return
    if not proof:
        raise ProofError("an empty proof between trees of different sizes")
    path = list(proof)
    if first & (first - 1) == 0:  # the first tree is a complete subtree of the second
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    first_hash = second_hash = path[0]
    for sibling in path[1:]:
        if sn == 0:
            raise ProofError("the proof is longer than the tree is deep")
        if fn & 1 or fn == sn:
            first_hash = node_hash(sibling, first_hash)
            second_hash = node_hash(sibling, second_hash)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            second_hash = node_hash(second_hash, sibling)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError("the proof is shorter than the tree is deep")
    if first_hash != first_root:
        raise ProofError("the proof does not lead to the older root")
    if second_hash != second_root:
        raise ProofError("the proof does not lead to the newer root")


class Tree:
    """A tree held in memory, every complete subtree's hash kept by level: what the store keeps
    tile by tile, here for tests, the monitor and offline checks."""

    def __init__(self) -> None:
        self.levels: list[list[bytes]] = [[]]

    @property
    def size(self) -> int:
        return len(self.levels[0])

    def append(self, entry: bytes) -> int:
        """Add an entry; its index."""
        index = self.size
        self.levels[0].append(leaf_hash(entry))
        level = 0
        while len(self.levels[level]) % 2 == 0:
            pair = self.levels[level][-2:]
            if len(self.levels) == level + 1:
                self.levels.append([])
            self.levels[level + 1].append(node_hash(*pair))
            level += 1
        return index

    def node(self, level: int, index: int) -> bytes:
        return self.levels[level][index]

    def root(self, size: int | None = None) -> bytes:
        return root(self.node, self.size if size is None else size)

    def inclusion_proof(self, index: int, size: int | None = None) -> list[bytes]:
        return inclusion_proof(self.node, index, self.size if size is None else size)

    def consistency_proof(self, first: int, second: int | None = None) -> list[bytes]:
        return consistency_proof(self.node, first, self.size if second is None else second)
