"""Checks evidence of a cheat offline (``cardledger verify --evidence FILE``): a split view
(``projections/transparency/evidence.py``), or a game on record whose bundle, as the service
serves it now, contradicts what the log signed, or which the service no longer has, or serves
as over while the signed tree holds no end of it."""

from __future__ import annotations

from typing import Any

from domain.aggregate import Recorded
from domain.events import GameCancelled, GameCreated, GameFinished
from projections.transparency.entries import GameCreatedEntry, GameEndedEntry
from projections.transparency.evidence import (
    GAME_ON_RECORD,
    SPLIT_VIEW,
    LoggedEntry,
    NotProven,
    later_entries,
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
        if not isinstance(first, GameCreated) or first.seed_commitment != entry.commitment:
            return (
                f"game {game} was dealt from another seed than the commitment on record ({where})"
            )
        if "later_entries" not in evidence:
            raise NotProven("the served game was dealt from the commitment on record")
        return withheld_end(evidence, logged, events) + f" ({where})"
    at = [event for event in events if event.originator_version == entry.version]
    if at and at[0].hash == entry.head:
        raise NotProven("the served game holds the chain head on record")
    return f"game {game} no longer ends at the chain head on record ({where}): it was rewritten"


def withheld_end(evidence: dict[str, Any], logged: LoggedEntry, events: list[Recorded]) -> str:
    """A game served as over whose end the signed tree, proven entry by entry after the
    creation, does not hold."""
    game = logged.entry().game_id
    last = events[-1]
    if not isinstance(last.payload, GameFinished | GameCancelled):
        raise NotProven("the served game is not over")
    later = later_entries(logged, evidence["edge"], evidence["later_entries"])
    if any(isinstance(entry, GameEndedEntry) and entry.game_id == game for entry in later):
        raise NotProven("the signed tree holds the game's end")
    return (
        f"game {game} is served as over (version {last.originator_version}, recorded"
        f" {last.timestamp.isoformat()}) and the signed tree of {logged.checkpoint.size} holds"
        " no end of it after its creation"
    )
