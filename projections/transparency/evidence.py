"""Evidence an auditor can hand to a third party that the log's operator cheated, checked
offline against the log's key alone (``cardledger verify --evidence``).

A **split view**: two checkpoints, both signed by the log's key, for one origin, that cannot
both be true, either the same size with two roots, or two trees holding different entries at
one index (each entry with its inclusion proof under its checkpoint). Whoever holds the key
signed both: no consistency proof can join them.

A **game on record**: a signed checkpoint and an inclusion proof of a game's entry (its creation
with the seed commitment, or its end with the final version and chain head), beside what the
service serves of that game now (``served``: its export bundle, or nothing when it answers that
the game does not exist). The signed part binds the operator: the game existed, was dealt from
that commitment, ended with that head; what is served is compared with it. With the entries
after a creation (``later_entries``, and the right edge of the tree up to the creation), it
shows as well that the signed tree holds no end of the game, while the service serves it over.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any

from projections.transparency.entries import Entry, decode
from projections.transparency.frontier import Frontier
from projections.transparency.merkle import leaf_hash, verify_inclusion
from projections.transparency.notes import Checkpoint, NoteError, Policy, Verifier
from projections.transparency.receipts import accepted

SPLIT_VIEW = "split-view"
GAME_ON_RECORD = "game-on-record"


class NotProven(ValueError):
    """Evidence that does not show what it claims."""


@dataclass(frozen=True)
class LoggedEntry:
    checkpoint: Checkpoint
    index: int
    data: bytes

    def entry(self) -> Entry:
        """The entry its bytes encode; raises NotProven if they are no entry."""
        try:
            return decode(self.data)
        except ValueError as error:
            raise NotProven(f"entry {self.index} is not an entry: {error}") from error


def logged_entry(note: str, index: int, data: str, proof: list[str], key: Verifier) -> LoggedEntry:
    """An entry proven under a checkpoint the log's key signed; raises NotProven."""
    try:
        checkpoint = accepted(note, Policy(key, (), 0))
        raw = data.encode()
        hashes = [base64.b64decode(hashed, validate=True) for hashed in proof]
        verify_inclusion(leaf_hash(raw), index, checkpoint.size, hashes, checkpoint.root)
        return LoggedEntry(checkpoint, index, raw)
    except ValueError as error:
        raise NotProven(f"entry {index} is not proven under its checkpoint: {error}") from error


def later_entries(logged: LoggedEntry, edge: dict[str, str], later: list[str]) -> list[Entry]:
    """The entries after ``logged`` up to its checkpoint's size, proven: appended to ``edge``
    (level: base64 hash of each complete subtree at the right edge of the tree ending with the
    logged entry) they make the signed root. Raises NotProven."""
    try:
        hashes = {
            int(level): base64.b64decode(hashed, validate=True) for level, hashed in edge.items()
        }
        frontier = Frontier(logged.index + 1, hashes)
    except ValueError as error:
        raise NotProven(f"no right edge of the tree of {logged.index + 1}: {error}") from error
    raw = [text.encode() for text in later]
    frontier.append(raw)
    checkpoint = logged.checkpoint
    if frontier.size != checkpoint.size or frontier.root() != checkpoint.root:
        raise NotProven(f"the later entries do not make the signed tree of {checkpoint.size}")
    return [LoggedEntry(checkpoint, index, data).entry() for index, data in enumerate(raw)]


def split_view(evidence: dict[str, Any], key: Verifier) -> str:
    """What the two checkpoints show; raises NotProven unless they are a split view."""
    try:
        first = accepted(evidence["first"], Policy(key, (), 0))
        second = accepted(evidence["second"], Policy(key, (), 0))
    except NoteError as error:
        raise NotProven(f"a checkpoint not signed by the log's key: {error}") from error
    if first.origin != second.origin:
        raise NotProven("checkpoints of two logs")
    if first.size == second.size:
        if first.root == second.root:
            raise NotProven("one tree: the same size and root")
        return f"two trees of {first.size} entries with different roots, both signed"
    index = int(evidence["index"])
    one = logged_entry(
        evidence["first"], index, evidence["first_entry"], evidence["first_proof"], key
    )
    two = logged_entry(
        evidence["second"], index, evidence["second_entry"], evidence["second_proof"], key
    )
    if one.data == two.data:
        raise NotProven(f"both trees hold the same entry {index}")
    return (
        f"the trees of {first.size} and {second.size} entries hold different entries at"
        f" {index}, both signed: the larger does not extend the smaller"
    )
