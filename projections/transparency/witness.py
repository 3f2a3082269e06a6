"""What a witness decides (C2SP tlog-witness ``add-checkpoint``), pure: the request's text, the
checks, the answer. The process around it (``cardledger witness``) keeps the state and serves it.

A request body is ``old <size>\\n``, one base64 consistency-proof hash a line, an empty line, then
the log's signed note. The witness cosigns only a checkpoint signed by the log's key that
extends, by the proof, the last checkpoint it cosigned for that origin; it never cosigns two
checkpoints of one size with different roots, nor a smaller one after a larger.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from projections.transparency.merkle import ProofError, empty_root, verify_consistency
from projections.transparency.notes import Checkpoint, NoteError, SignedNote, Signer, Verifier

SIZE_TYPE = "text/x.tlog.size"  # the media type of a 409's body: the size the witness holds


@dataclass(frozen=True)
class AddCheckpoint:
    old: int
    proof: tuple[bytes, ...]
    note: str  # the log's signed note, as text

    def text(self) -> str:
        hashes = "".join(base64.b64encode(hashed).decode() + "\n" for hashed in self.proof)
        return f"old {self.old}\n{hashes}\n{self.note}"

    @classmethod
    def parse(cls, text: str) -> AddCheckpoint:
        head, separator, note = text.partition("\n\n")
        lines = head.split("\n")
        if not separator or not lines[0].startswith("old "):
            raise Refused(400, "a request is 'old <size>', proof lines, an empty line, a note")
        size = lines[0].removeprefix("old ")
        if not size.isascii() or not size.isdigit() or (size != "0" and size.startswith("0")):
            raise Refused(400, f"old size {size!r} is not a decimal number")
        try:
            proof = tuple(base64.b64decode(line, validate=True) for line in lines[1:])
        except ValueError as error:
            raise Refused(400, "a proof line that is not base64") from error
        return cls(int(size), proof, note)


class Refused(Exception):
    """The witness's refusal: an HTTP status, why, and for 409 the size it holds."""

    def __init__(self, status: int, reason: str, held: int | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.held = held


@dataclass(frozen=True)
class Conflict:
    """What a witness keeps of a refused checkpoint that does not extend the one it holds: both
    signed notes, each signed by the log's key (evidence for ``cardledger verify --evidence``)."""

    held: str
    offered: str
    reason: str


def add_checkpoint(
    request: AddCheckpoint,
    held: str | None,
    logs: dict[str, Verifier],
    witness: Signer,
    now: int,
) -> tuple[Checkpoint, str]:
    """The checkpoint to hold from now on and the cosignature line to answer with; raises
    Refused. ``held`` is the note last cosigned for the request's origin (None: none yet),
    ``logs`` the known logs' keys by origin, ``now`` the cosignature's time in seconds."""
    try:
        note = SignedNote.parse(request.note)
    except NoteError as error:
        raise Refused(403, f"not a signed checkpoint: {error}") from error
    checkpoint = note.checkpoint
    key = logs.get(checkpoint.origin)
    if key is None:
        raise Refused(404, f"no log of origin {checkpoint.origin!r} is known here")
    try:
        if not any(key.check(checkpoint, line) is not None for line in note.signatures):
            raise NoteError("no signature of the log's key")
    except NoteError as error:
        raise Refused(403, str(error)) from error
    if request.old > checkpoint.size:
        raise Refused(400, f"old size {request.old} is past the checkpoint's {checkpoint.size}")
    last = None if held is None else SignedNote.parse(held).checkpoint
    held_size = 0 if last is None else last.size
    if request.old != held_size:
        raise Refused(409, f"this witness holds the tree of {held_size}", held_size)
    held_root = empty_root() if last is None else last.root
    try:
        if checkpoint.size == 0 and checkpoint.root != empty_root():
            raise ProofError("a tree of 0 whose root is not the empty tree's")
        verify_consistency(held_size, checkpoint.size, held_root, checkpoint.root, request.proof)
    except ProofError as error:
        raise Refused(422, f"the checkpoint does not extend the one held: {error}") from error
    return checkpoint, witness.cosign(checkpoint, now)


def refused_conflict(held: str | None, request: AddCheckpoint, refusal: Refused) -> Conflict | None:
    """A conflict worth keeping: a checkpoint signed by the log that does not extend the one
    held (refused with 422), never a malformed or unsigned request."""
    if held is None or refusal.status != 422:
        return None
    return Conflict(held, request.note, refusal.reason)
