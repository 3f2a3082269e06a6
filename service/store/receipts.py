"""Receipts of requests carried out with an Idempotency-Key: recorded with the command's
events in one transaction, read back to answer a retry exactly as the original was answered.

A receipt's id follows from who sent the request, where (one game, or creation) and the key,
so a retry finds it with one read, and two racing requests with the same key cannot both
record one: the second insert conflicts, and its sender is answered from the first's receipt.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple
from uuid import UUID

import msgspec
from eventsourcing.application import AggregateNotFoundError

from domain.aggregate import GameAggregate, Recorded, project
from service.errors import IDEMPOTENCY_KEY_REUSED
from service.store.event_store import Store
from service.store.records import CommandReceipt, Record, receipt_id_for


class Idempotency(msgspec.Struct, frozen=True):
    """An Idempotency-Key and the digest of the request it came with."""

    key: str
    digest: str


class ReceiptKey(NamedTuple):
    """Where a keyed request's receipt is kept: its sender, its scope (``create`` or
    ``game:<id>``) and its key."""

    actor_id: str
    scope: str
    idempotency: Idempotency

    @property
    def receipt_id(self) -> UUID:
        return receipt_id_for(self.actor_id, self.scope, self.idempotency.key)


class Carried(NamedTuple):
    """What a request already carried out did: the game after it, its events, and when."""

    game: GameAggregate
    recorded: list[Recorded]
    at: datetime | None


class Receipts:
    def __init__(self, store: Store) -> None:
        self._store = store

    @staticmethod
    def receipt(key: ReceiptKey, game: GameAggregate, from_version: int, now: datetime) -> Record:
        """The record to save beside the command's events."""
        payload = CommandReceipt(
            request_digest=key.idempotency.digest,
            game_id=str(game.id),
            from_version=from_version,
            to_version=game.version,
            chain_head=game.chain_head,
        )
        return Record.new(key.receipt_id, payload, now)

    def carried(self, key: ReceiptKey | None) -> Carried | None:
        """What the request with this key did, if it was carried out; a different request
        with the same key is refused (422 ``idempotency_key_reused``)."""
        if key is None:
            return None
        try:
            record: Any = self._store.repository.get(key.receipt_id, projector_func=project)
        except AggregateNotFoundError:
            return None
        receipt = record.payload
        assert isinstance(receipt, CommandReceipt)
        if receipt.request_digest != key.idempotency.digest:
            raise IDEMPOTENCY_KEY_REUSED("this Idempotency-Key was used with a different request")
        game_id = UUID(receipt.game_id)
        game = self._store.repository.get(
            game_id, version=receipt.to_version, projector_func=project
        )
        recorded = self._store.events_between(game_id, receipt.from_version, receipt.to_version)
        return Carried(game, recorded, recorded[-1].timestamp if recorded else None)
