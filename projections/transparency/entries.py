"""The log's entries: what the witnessed log records of each game, as canonical bytes.

Two kinds, each UTF-8 text of fixed lines in a fixed order, every line ending in ``\\n`` (so
one game's facts have exactly one encoding, and an auditor reads an entry by eye):

    cardledger/game-created/v1          cardledger/game-ended/v1
    game <uuid, lowercase, hyphens>     game <uuid>
    variant <variant id>                status <finished | cancelled>
    commitment <SHA-256(seed), hex>     version <final version, decimal>
                                        head <final chain head, hex>

The creation entry is appended when the game is created, before any card is dealt: a deal the
operator abandons stays on record with its commitment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from uuid import UUID

CREATED = "cardledger/game-created/v1"
ENDED = "cardledger/game-ended/v1"
ENDINGS = ("finished", "cancelled")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_VARIANT = re.compile(r"[a-z0-9][a-z0-9-]*")


class EntryError(ValueError):
    """Bytes that are not the canonical encoding of an entry."""


@dataclass(frozen=True)
class GameCreatedEntry:
    game_id: UUID
    variant: str
    commitment: str  # SHA-256 of the server seed, 64 lowercase hex digits

    def encode(self) -> bytes:
        return _lines(
            CREATED,
            f"game {self.game_id}",
            f"variant {self.variant}",
            f"commitment {self.commitment}",
        )


@dataclass(frozen=True)
class GameEndedEntry:
    game_id: UUID
    status: str  # finished or cancelled
    version: int  # the game's last version
    head: str  # the hash of its last event, 64 lowercase hex digits

    def encode(self) -> bytes:
        return _lines(
            ENDED,
            f"game {self.game_id}",
            f"status {self.status}",
            f"version {self.version}",
            f"head {self.head}",
        )


Entry = GameCreatedEntry | GameEndedEntry


def _lines(*lines: str) -> bytes:
    return "".join(f"{line}\n" for line in lines).encode()


def decode(data: bytes) -> Entry:
    """The entry ``data`` encodes; raises EntryError unless ``data`` is its canonical form."""
    try:
        text = data.decode()
    except UnicodeDecodeError as error:
        raise EntryError("an entry is UTF-8 text") from error
    if not text.endswith("\n"):
        raise EntryError("an entry ends with a newline")
    kind, *lines = text[:-1].split("\n")
    fields = [line.partition(" ") for line in lines]
    values = [value for _, _, value in fields]
    names = tuple(name for name, _, _ in fields)
    entry: Entry
    try:
        if kind == CREATED and names == ("game", "variant", "commitment"):
            entry = GameCreatedEntry(UUID(values[0]), values[1], values[2])
        elif kind == ENDED and names == ("game", "status", "version", "head"):
            entry = GameEndedEntry(UUID(values[0]), values[1], int(values[2]), values[3])
        else:
            raise EntryError(f"not an entry of a known kind: {kind!r} with {names}")
    except ValueError as error:
        raise EntryError(f"an entry's field does not parse: {error}") from error
    if entry.encode() != data or not _valid(entry):
        raise EntryError("not the canonical encoding of an entry")
    return entry


def _valid(entry: Entry) -> bool:
    if isinstance(entry, GameCreatedEntry):
        return bool(_VARIANT.fullmatch(entry.variant) and _HEX64.fullmatch(entry.commitment))
    return entry.status in ENDINGS and entry.version >= 1 and bool(_HEX64.fullmatch(entry.head))
