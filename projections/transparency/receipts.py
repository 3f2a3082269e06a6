"""Checking what the log hands a player, offline: a game's receipt from the log (its entries,
each with an inclusion proof, and the signed checkpoint they lead to) and a newer checkpoint's
consistency with an older one. Pure: the caller reads the files and the key."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

from projections.transparency.entries import Entry, decode
from projections.transparency.merkle import leaf_hash, verify_consistency, verify_inclusion
from projections.transparency.notes import Checkpoint, NoteError, Policy, SignedNote, Verifier


def accepted(note_text: str, policy: Policy) -> Checkpoint:
    """The checkpoint of a signed note the policy accepts; raises NoteError otherwise."""
    note = SignedNote.parse(note_text)
    policy.accept(note)
    return note.checkpoint


def check_receipt(receipt: dict[str, Any], policy: Policy) -> tuple[Checkpoint, list[Entry]]:
    """The receipt's checkpoint and entries (``GET /games/{id}/log``), every entry's inclusion
    proof checked against the accepted checkpoint; raises ValueError (NoteError, ProofError,
    EntryError) at the first thing that fails."""
    checkpoint = accepted(receipt["checkpoint"], policy)
    if receipt.get("tree_size") != checkpoint.size:
        raise NoteError("the receipt's tree size is not its checkpoint's")
    entries: list[Entry] = []
    for logged in receipt["entries"]:
        data = str(logged["entry"]).encode()
        entry = decode(data)
        if str(entry.game_id) != receipt["game_id"]:
            raise ValueError(f"entry {logged['index']} is another game's")
        proof = logged["inclusion_proof"]
        if proof is None:
            raise ValueError(f"entry {logged['index']} is not under the checkpoint yet")
        verify_inclusion(
            leaf_hash(data), int(logged["index"]), checkpoint.size, _hashes(proof), checkpoint.root
        )
        entries.append(entry)
    return checkpoint, entries


def check_consistency(older: Checkpoint, newer: Checkpoint, proof: Sequence[str]) -> None:
    """Raises unless ``newer`` extends ``older`` (same origin, the proof leads to both roots)."""
    if older.origin != newer.origin:
        raise NoteError(f"checkpoints of two logs: {older.origin!r} and {newer.origin!r}")
    verify_consistency(older.size, newer.size, older.root, newer.root, _hashes(proof))


def _hashes(encoded: Sequence[str]) -> list[bytes]:
    return [base64.b64decode(hashed, validate=True) for hashed in encoded]


def parse_policy(text: str) -> Policy:
    """A policy file: one ``log <verifier key>`` line, any number of ``witness <verifier key>``
    lines, one ``quorum <n>`` line (0 if absent); blank lines and ``#`` comments are skipped."""
    log: list[Verifier] = []
    witnesses: list[Verifier] = []
    quorum = 0
    for line in text.splitlines():
        word, _, value = line.strip().partition(" ")
        if not word or word.startswith("#"):
            continue
        if word == "log":
            log.append(Verifier.parse(value))
        elif word == "witness":
            witnesses.append(Verifier.parse(value))
        elif word == "quorum" and value.strip().isdigit():
            quorum = int(value)
        else:
            raise NoteError(f"not a policy line: {line!r}")
    if len(log) != 1 or quorum > len(witnesses):
        raise NoteError("a policy names one log key and a quorum of at most its witnesses")
    return Policy(log[0], tuple(witnesses), quorum)
