"""Checkpoints and the signed notes that carry them (C2SP tlog-checkpoint, signed-note and
tlog-cosignature/v1), signed with Ed25519 through ``cryptography``.

A checkpoint is the text ``<origin>\\n<size>\\n<base64 root>\\n`` (extension lines may follow). A
signed note is that text, a blank line, and one line a signature ``— <key name> <base64(key id ||
signature)>``; the key id is the first four bytes of SHA-256(key name || 0x0A || type || public
key), type 0x01 for the log's Ed25519 signature over the text, 0x04 for a witness's cosignature,
which signs ``cosignature/v1\\ntime <seconds>\\n`` followed by the checkpoint and carries its time
as eight big-endian bytes between the key id and the signature. Written here: the formats are a
few lines of text each, and no maintained Python package implements them.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from projections.transparency.merkle import HASH_SIZE

ED25519 = 0x01
COSIGNATURE = 0x04
DASH = "\u2014"
SIGNATURE_SIZE = 64


class NoteError(ValueError):
    """A note, checkpoint or key that does not parse, or a signature that does not verify."""


@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    def text(self) -> str:
        lines = [
            self.origin,
            str(self.size),
            base64.b64encode(self.root).decode(),
            *self.extensions,
        ]
        return "".join(f"{line}\n" for line in lines)

    @classmethod
    def parse(cls, text: str) -> Checkpoint:
        if not text.endswith("\n"):
            raise NoteError("a checkpoint ends with a newline")
        lines = text[:-1].split("\n")
        if len(lines) < 3 or not lines[0] or any(not line for line in lines[3:]):
            raise NoteError("a checkpoint is an origin, a size and a root, one a line")
        origin, size, root = lines[:3]
        if not size.isdigit() or (size != "0" and size.startswith("0")):
            raise NoteError(f"tree size {size!r} is not a decimal number")
        try:
            hashed = base64.b64decode(root, validate=True)
        except ValueError as error:
            raise NoteError(f"root {root!r} is not base64") from error
        if len(hashed) != HASH_SIZE:
            raise NoteError(f"a root is {HASH_SIZE} bytes")
        return cls(origin, int(size), hashed, tuple(lines[3:]))


def key_id(name: str, kind: int, public: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + bytes([kind]) + public).digest()[:4]


def _raw(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(Encoding.Raw, PublicFormat.Raw)


@dataclass(frozen=True)
class Signer:
    """A named Ed25519 key: the log's (type 0x01) or a witness's (0x04)."""

    name: str
    key: Ed25519PrivateKey
    kind: int = ED25519

    @property
    def public(self) -> bytes:
        return _raw(self.key.public_key())

    @property
    def id(self) -> bytes:
        return key_id(self.name, self.kind, self.public)

    def verifier(self) -> Verifier:
        return Verifier(self.name, self.public, self.kind)

    def sign(self, checkpoint: Checkpoint) -> str:
        """The log's signature line over ``checkpoint``."""
        if self.kind != ED25519:
            raise NoteError("a witness cosigns; it does not sign checkpoints")
        signature = self.key.sign(checkpoint.text().encode())
        return _line(self.name, self.id + signature)

    def cosign(self, checkpoint: Checkpoint, time: int) -> str:
        """A witness's cosignature line over ``checkpoint`` at ``time`` (seconds since 1970)."""
        if self.kind != COSIGNATURE:
            raise NoteError("only a witness key cosigns")
        signature = self.key.sign(cosigned_message(checkpoint, time))
        return _line(self.name, self.id + time.to_bytes(8, "big") + signature)


def cosigned_message(checkpoint: Checkpoint, time: int) -> bytes:
    return f"cosignature/v1\ntime {time}\n".encode() + checkpoint.text().encode()


def _line(name: str, blob: bytes) -> str:
    return f"{DASH} {name} {base64.b64encode(blob).decode()}\n"


@dataclass(frozen=True)
class Verifier:
    """A named public key, as published: ``<name>+<hex key id>+<base64(type || key)>``."""

    name: str
    public: bytes
    kind: int = ED25519

    @property
    def id(self) -> bytes:
        return key_id(self.name, self.kind, self.public)

    def text(self) -> str:
        blob = base64.b64encode(bytes([self.kind]) + self.public).decode()
        return f"{self.name}+{self.id.hex()}+{blob}"

    @classmethod
    def parse(cls, text: str) -> Verifier:
        try:
            name, hex_id, blob = text.strip().split("+", 2)
            raw = base64.b64decode(blob, validate=True)
        except ValueError as error:
            raise NoteError(f"not a verifier key: {text!r}") from error
        if not name or len(raw) != 33 or raw[0] not in (ED25519, COSIGNATURE):
            raise NoteError(f"not an Ed25519 verifier key: {text!r}")
        found = cls(name, raw[1:], raw[0])
        if found.id.hex() != hex_id:
            raise NoteError(f"the key id of {name!r} does not match its key")
        return found

    def check(self, checkpoint: Checkpoint, line: Signature) -> int | None:
        """Whether ``line`` is this key's valid signature (or cosignature) of ``checkpoint``:
        None if it is not this key's line at all, the cosignature's time (0 for the log's own
        signature) if valid; raises NoteError if it is this key's line and does not verify."""
        if line.name != self.name or line.blob[:4] != self.id:
            return None
        public = Ed25519PublicKey.from_public_bytes(self.public)
        if self.kind == COSIGNATURE:
            if len(line.blob) != 4 + 8 + SIGNATURE_SIZE:
                raise NoteError(f"{self.name}'s cosignature is malformed")
            time = int.from_bytes(line.blob[4:12], "big")
            message, signature = cosigned_message(checkpoint, time), line.blob[12:]
        else:
            time, message, signature = 0, checkpoint.text().encode(), line.blob[4:]
        try:
            public.verify(signature, message)
        except InvalidSignature as error:
            raise NoteError(f"{self.name}'s signature does not verify") from error
        return time


@dataclass(frozen=True)
class Signature:
    name: str
    blob: bytes


@dataclass(frozen=True)
class SignedNote:
    checkpoint: Checkpoint
    signatures: tuple[Signature, ...]

    def text(self) -> str:
        lines = (_line(s.name, s.blob) for s in self.signatures)
        return self.checkpoint.text() + "\n" + "".join(lines)

    def with_lines(self, lines: Sequence[str]) -> SignedNote:
        """This note with more signature lines (a witness's cosignatures)."""
        return SignedNote(self.checkpoint, self.signatures + tuple(map(_signature, lines)))

    @classmethod
    def parse(cls, text: str) -> SignedNote:
        body, separator, signed = text.rpartition("\n\n")
        if not separator or not signed.endswith("\n"):
            raise NoteError("a signed note is a text, a blank line and signature lines")
        lines = signed[:-1].split("\n")
        return cls(Checkpoint.parse(body + "\n"), tuple(_signature(line + "\n") for line in lines))


def _signature(line: str) -> Signature:
    prefix = f"{DASH} "
    if not line.startswith(prefix) or not line.endswith("\n"):
        raise NoteError(f"not a signature line: {line!r}")
    name, _, blob = line[len(prefix) : -1].rpartition(" ")
    try:
        raw = base64.b64decode(blob, validate=True)
    except ValueError as error:
        raise NoteError(f"a signature that is not base64: {line!r}") from error
    if not name or len(raw) < 4:
        raise NoteError(f"not a signature line: {line!r}")
    return Signature(name, raw)


@dataclass(frozen=True)
class Policy:
    """Which notes to accept: signed by the log's key, and cosigned by at least ``quorum`` of
    the witnesses' keys."""

    log: Verifier
    witnesses: tuple[Verifier, ...]
    quorum: int

    def accept(self, note: SignedNote) -> dict[str, int]:
        """The witnesses that cosigned and when; raises NoteError if the note falls short."""
        signed = [self.log.check(note.checkpoint, line) for line in note.signatures]
        if not any(found is not None for found in signed):
            raise NoteError(f"no signature of the log's key {self.log.name!r}")
        cosigned: dict[str, int] = {}
        for witness in self.witnesses:
            for line in note.signatures:
                time = witness.check(note.checkpoint, line)
                if time is not None:
                    cosigned[witness.name] = time
        if len(cosigned) < self.quorum:
            raise NoteError(
                f"{len(cosigned)} of the {self.quorum} witness cosignatures the policy asks for"
            )
        return cosigned
