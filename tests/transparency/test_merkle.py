"""The Merkle tree against RFC 9162's definitions, written out recursively here over the whole
list of entries (the module computes from stored subtree hashes instead): roots, inclusion and
consistency proofs agree at every size and position up to 70 leaves, every proof verifies, and
any proof altered, cut, lengthened or offered for another position or size fails."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from projections.transparency.merkle import (
    ProofError,
    Tree,
    verify_consistency,
    verify_inclusion,
)


def mth(entries: list[bytes]) -> bytes:
    if not entries:
        return hashlib.sha256(b"").digest()
    if len(entries) == 1:
        return hashlib.sha256(b"\x00" + entries[0]).digest()
    k = 1
    while k * 2 < len(entries):
        k *= 2
    return hashlib.sha256(b"\x01" + mth(entries[:k]) + mth(entries[k:])).digest()


def path(m: int, entries: list[bytes]) -> list[bytes]:
    if len(entries) == 1:
        return []
    k = 1
    while k * 2 < len(entries):
        k *= 2
    if m < k:
        return [*path(m, entries[:k]), mth(entries[k:])]
    return [*path(m - k, entries[k:]), mth(entries[:k])]


def subproof(m: int, entries: list[bytes], complete: bool) -> list[bytes]:
    if m == len(entries):
        return [] if complete else [mth(entries)]
    k = 1
    while k * 2 < len(entries):
        k *= 2
    if m <= k:
        return [*subproof(m, entries[:k], complete), mth(entries[k:])]
    return [*subproof(m - k, entries[k:], False), mth(entries[:k])]


ENTRIES = [f"game {n}".encode() for n in range(70)]


@pytest.fixture(scope="module")
def tree() -> Tree:
    grown = Tree()
    for entry in ENTRIES:
        grown.append(entry)
    return grown


def test_roots_match_the_rfc_at_every_size(tree: Tree) -> None:
    for size in range(len(ENTRIES) + 1):
        assert tree.root(size) == mth(ENTRIES[:size]), size


def test_inclusion_proofs_match_the_rfc_and_verify(tree: Tree) -> None:
    for size in range(1, len(ENTRIES) + 1):
        for index in range(size):
            proof = tree.inclusion_proof(index, size)
            assert proof == path(index, ENTRIES[:size]), (index, size)
            leaf = hashlib.sha256(b"\x00" + ENTRIES[index]).digest()
            verify_inclusion(leaf, index, size, proof, tree.root(size))


def test_consistency_proofs_match_the_rfc_and_verify(tree: Tree) -> None:
    for second in range(len(ENTRIES) + 1):
        for first in range(second + 1):
            proof = tree.consistency_proof(first, second)
            expected = [] if first == 0 else subproof(first, ENTRIES[:second], True)
            assert proof == expected, (first, second)
            verify_consistency(first, second, tree.root(first), tree.root(second), proof)


DAMAGES = ("flip", "cut", "lengthen")


def damaged(proof: list[bytes], how: str, data: st.DataObject) -> list[bytes]:
    """``proof`` with one bit of one hash flipped, its last hash cut, or a hash repeated."""
    if how == "flip":
        at = data.draw(st.integers(0, len(proof) - 1))
        return [*proof[:at], bytes([proof[at][0] ^ 1]) + proof[at][1:], *proof[at + 1 :]]
    if how == "cut":
        return proof[:-1]
    return [*proof, proof[data.draw(st.integers(0, len(proof) - 1))]]


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_an_altered_inclusion_proof_fails(tree: Tree, data: st.DataObject) -> None:
    size = data.draw(st.integers(2, len(ENTRIES)))
    index = data.draw(st.integers(0, size - 1))
    proof = tree.inclusion_proof(index, size)
    leaf = hashlib.sha256(b"\x00" + ENTRIES[index]).digest()
    good_root = tree.root(size)
    how = data.draw(st.sampled_from([*DAMAGES, "index", "size", "leaf"]))
    if how in DAMAGES:
        proof = damaged(proof, how, data)
    elif how == "index":
        index = (index + data.draw(st.integers(1, size - 1))) % size
    elif how == "size":  # a checkpoint signs a size with its root: the other size's root
        size = data.draw(st.integers(1, len(ENTRIES)).filter(lambda other: other != size))
        index, good_root = min(index, size - 1), tree.root(size)
    else:
        leaf = hashlib.sha256(b"\x00other").digest()
    with pytest.raises(ProofError):
        verify_inclusion(leaf, index, size, proof, good_root)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_an_altered_consistency_proof_fails(tree: Tree, data: st.DataObject) -> None:
    second = data.draw(st.integers(2, len(ENTRIES)))
    first = data.draw(st.integers(1, second - 1))
    proof = tree.consistency_proof(first, second)
    first_root, second_root = tree.root(first), tree.root(second)
    how = data.draw(st.sampled_from([*DAMAGES, "old root", "new root", "size"]))
    if how in DAMAGES:
        proof = damaged(proof, how, data)
    elif how == "old root":
        first_root = tree.root(first - 1) if first > 1 else mth([b"forged"])
    elif how == "new root":
        second_root = mth([*ENTRIES[: second - 1], b"forged"])
    else:
        first = data.draw(st.integers(1, second - 1).filter(lambda other: other != first))
        first_root = tree.root(first)
    with pytest.raises(ProofError):
        verify_consistency(first, second, first_root, second_root, proof)


def test_a_fork_cannot_be_proven_consistent() -> None:
    """Two trees that share 5 entries and then differ: no proof from one makes the other extend."""
    honest, forked = Tree(), Tree()
    for entry in ENTRIES[:5]:
        honest.append(entry)
        forked.append(entry)
    honest.append(b"game abandoned after the deal")
    forked.append(b"game dealt again")
    for extra in ENTRIES[5:9]:
        honest.append(extra)
        forked.append(extra)
    with pytest.raises(ProofError):
        verify_consistency(6, 10, honest.root(6), forked.root(10), forked.consistency_proof(6))
