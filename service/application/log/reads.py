"""What the service serves of the witnessed log: the latest checkpoint, tiles, entry bundles,
its key, a game's entries with their inclusion proofs, and consistency proofs.

Every answer stands against a signed checkpoint: tiles and proofs only reach as far as the
latest one, so a client never sees a tree no signature covers.
"""

from __future__ import annotations

import base64
from uuid import UUID

import msgspec

from projections.transparency.merkle import Nodes, consistency_proof, inclusion_proof
from projections.transparency.notes import Signer
from projections.transparency.tiles import HEIGHT, WIDTH, entry_bundle
from service.errors import GAME_NOT_FOUND, INVALID_TREE_SIZE, NO_CHECKPOINT_YET, TILE_NOT_FOUND
from service.store.log_tables import LogTables, StoredCheckpoint


class LoggedEntry(msgspec.Struct, frozen=True, kw_only=True):
    index: int
    entry: str  # the entry's bytes (UTF-8 text, docs/transparency.md)
    inclusion_proof: list[str] | None  # base64 hashes, leaf first; None: not yet signed


class GameLog(msgspec.Struct, frozen=True, kw_only=True):
    """A game's receipt from the log: its entries, each with an inclusion proof against the
    checkpoint (the signed note, as ``GET /log/checkpoint`` served it)."""

    game_id: str
    checkpoint: str
    tree_size: int
    entries: list[LoggedEntry]


class ConsistencyProof(msgspec.Struct, frozen=True, kw_only=True):
    first: int
    second: int
    proof: list[str]  # base64 hashes


class LogReads:
    def __init__(self, tables: LogTables, signer: Signer, witnesses: int = 0) -> None:
        self._tables = tables
        self._key = signer.verifier().text()
        self._witnesses = witnesses

    def key(self) -> str:
        """The log's verifier key: ``<origin>+<key id>+<base64(0x01 || public key)>``."""
        return self._key

    def checkpoint(self) -> StoredCheckpoint:
        """The latest signed checkpoint, with the cosignatures the witnesses gave it so far."""
        latest = self._tables.latest_checkpoint()
        if latest is None:
            raise NO_CHECKPOINT_YET("the log has signed no checkpoint yet")
        return self._cosigned(latest)

    def _cosigned(self, checkpoint: StoredCheckpoint) -> StoredCheckpoint:
        lines = "".join(self._tables.cosignatures(checkpoint.size))
        return checkpoint._replace(note=checkpoint.note + lines)

    def _receipt_checkpoint(self, last_index: int) -> StoredCheckpoint:
        """What a game's receipt stands against: the latest checkpoint every configured witness
        cosigned, if it covers the game's entries (a receipt a policy with a quorum accepts);
        else the latest."""
        if self._witnesses:
            witnessed = self._tables.latest_witnessed(self._witnesses)
            if witnessed is not None and witnessed.size > last_index:
                return self._cosigned(witnessed)
        return self.checkpoint()

    def _signed_size(self) -> int:
        latest = self._tables.latest_checkpoint()
        return 0 if latest is None else latest.size

    def tile(self, level: int, index: int, width: int) -> bytes:
        """The hashes of tile ``level``/``index``, ``width`` of them (a prefix of a partial
        tile is served as well: a client holding an older checkpoint asks for it)."""
        self._within(self._signed_size() >> (HEIGHT * level), index, width)
        return b"".join(self._tables.nodes(HEIGHT * level, index * WIDTH, width))

    def entries(self, index: int, width: int) -> bytes:
        self._within(self._signed_size(), index, width)
        return entry_bundle(self._tables.entries(index * WIDTH, width))

    @staticmethod
    def _within(count: int, index: int, width: int) -> None:
        if not 1 <= width <= max(0, min(WIDTH, count - index * WIDTH)):
            raise TILE_NOT_FOUND("the latest checkpoint's tree holds no such tile")

    def game(self, game_id: UUID) -> GameLog:
        found = self._tables.entries_of(str(game_id))
        if not found:
            raise GAME_NOT_FOUND(f"the log holds no entry of game {game_id} yet")
        latest = self._receipt_checkpoint(found[-1].index)
        nodes = self._nodes()
        return GameLog(
            game_id=str(game_id),
            checkpoint=latest.note,
            tree_size=latest.size,
            entries=[
                LoggedEntry(
                    index=logged.index,
                    entry=logged.entry.decode(),
                    inclusion_proof=(
                        _b64(inclusion_proof(nodes, logged.index, latest.size))
                        if logged.index < latest.size
                        else None
                    ),
                )
                for logged in found
            ],
        )

    def consistency(self, first: int, second: int) -> ConsistencyProof:
        signed = self._signed_size()
        if not 0 <= first <= second <= signed:
            raise INVALID_TREE_SIZE(
                f"sizes must be 0 <= from <= to <= {signed} (the latest checkpoint's size)"
            )
        return ConsistencyProof(
            first=first, second=second, proof=_b64(consistency_proof(self._nodes(), first, second))
        )

    def _nodes(self) -> Nodes:
        def node(level: int, index: int) -> bytes:
            return self._tables.nodes(level, index, 1)[0]

        return node


def _b64(hashes: list[bytes]) -> list[str]:
    return [base64.b64encode(hashed).decode() for hashed in hashes]
