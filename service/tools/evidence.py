"""Checks evidence of a cheat offline (``cardledger verify --evidence FILE``): a split view
(``projections/transparency/evidence.py``), or a game on record whose bundle, as the service
serves it now, contradicts what the log signed, or which the service no longer has."""

from __future__ import annotations

from typing import Any

from domain.events import GameCreated
from projections.transparency.entries import GameCreatedEntry
from projections.transparency.evidence import (
    GAME_ON_RECORD,
    SPLIT_VIEW,
    NotProven,
    logged_entry,
    split_view,
)
from projections.transparency.notes import Verifier
from service.application.bundle import BundleError, read_bundle


def check_evidence(evidence: dict[str, Any], key: Verifier) -> str:
    """What the evidence proves; raises NotProven (a ValueError) if it proves nothing."""
    kind = evidence.get("kind")
    if kind == SPLIT_VIEW:
        return split_view(evidence, key)
    if kind == GAME_ON_RECORD:
        return game_on_record(evidence, key)
    raise NotProven(f"no evidence of a known kind: {kind!r}")


def game_on_record(evidence: dict[str, Any], key: Verifier) -> str:
    logged = logged_entry(
        evidence["checkpoint"],
        int(evidence["index"]),
        evidence["entry"],
        evidence["inclusion_proof"],
        key,
    )
    entry = logged.entry()
    game = entry.game_id
    where = f"entry {logged.index} of the signed tree of {logged.checkpoint.size}"
    served = evidence.get("served")
    if served is None:
        return f"game {game} is on record ({where}); the service answered it has no such game"
    try:
        game_id, events = read_bundle(str(served).encode())
    except BundleError as error:
        raise NotProven(f"the served bundle does not read: {error}") from error
    if game_id != str(game):
        raise NotProven(f"the served bundle is game {game_id}'s, not {game}'s")
    if isinstance(entry, GameCreatedEntry):
        first = events[0].payload if events else None
        if isinstance(first, GameCreated) and first.seed_commitment == entry.commitment:
            raise NotProven("the served game was dealt from the commitment on record")
        return f"game {game} was dealt from another seed than the commitment on record ({where})"
    at = [event for event in events if event.originator_version == entry.version]
    if at and at[0].hash == entry.head:
        raise NotProven("the served game holds the chain head on record")
    return f"game {game} no longer ends at the chain head on record ({where}): it was rewritten"
