"""What a monitor concludes from the entries it has read, pure: which games the log lists and
what it says of each, and, when the log's served history no longer matches the one the monitor
kept, evidence of the split view (``evidence.split_view``) naming the first entry that differs."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from projections.transparency.entries import GameCreatedEntry, GameEndedEntry, decode
from projections.transparency.evidence import GAME_ON_RECORD, SPLIT_VIEW
from projections.transparency.merkle import Tree


def tree_of(entries: list[bytes]) -> Tree:
    made = Tree()
    for entry in entries:
        made.append(entry)
    return made


@dataclass
class ListedGame:
    """What the log says of one game: its entries by kind, with their indexes."""

    game_id: UUID
    created: tuple[int, GameCreatedEntry] | None = None
    ended: tuple[int, GameEndedEntry] | None = None
    others: list[int] = field(default_factory=list)  # a second creation or end: itself a finding


def listed_games(entries: list[bytes]) -> dict[UUID, ListedGame]:
    """Every game the entries name, in the order of first appearance."""
    games: dict[UUID, ListedGame] = {}
    for index, data in enumerate(entries):
        entry = decode(data)
        game = games.setdefault(entry.game_id, ListedGame(entry.game_id))
        if isinstance(entry, GameCreatedEntry) and game.created is None and game.ended is None:
            game.created = (index, entry)
        elif isinstance(entry, GameEndedEntry) and game.created is not None and game.ended is None:
            game.ended = (index, entry)
        else:
            game.others.append(index)
    return games


def _proof(tree: Tree, index: int, size: int) -> list[str]:
    return [base64.b64encode(hashed).decode() for hashed in tree.inclusion_proof(index, size)]


def fork_evidence(
    held_note: str, held: list[bytes], newer_note: str, served: list[bytes]
) -> dict[str, Any] | None:
    """Split-view evidence if the served entries differ from the held ones (both under their
    signed checkpoints: ``held`` makes the held note's tree, ``served`` the newer's)."""
    for index, (kept, now) in enumerate(zip(held, served, strict=False)):
        if kept != now:
            return {
                "kind": SPLIT_VIEW,
                "first": held_note,
                "second": newer_note,
                "index": index,
                "first_entry": kept.decode(),
                "first_proof": _proof(tree_of(held), index, len(held)),
                "second_entry": now.decode(),
                "second_proof": _proof(tree_of(served), index, len(served)),
            }
    return None


def game_evidence(
    note: str, entries: list[bytes], index: int, served: str | None, *, later: bool = False
) -> dict[str, Any]:
    """Evidence of a game on record: entry ``index`` under ``note`` (whose tree ``entries``
    make) beside what the service serves of the game (its bundle, or None: no such game); with
    ``later``, every entry after it as well, and the right edge of the tree ending with it,
    which together make the signed root (so the game's end is shown missing)."""
    tree = tree_of(entries)
    evidence: dict[str, Any] = {
        "kind": GAME_ON_RECORD,
        "checkpoint": note,
        "index": index,
        "entry": entries[index].decode(),
        "inclusion_proof": _proof(tree, index, len(entries)),
        "served": served,
    }
    if later:
        size = index + 1
        edge = [level for level in range(size.bit_length()) if size >> level & 1]
        evidence["edge"] = {
            str(level): base64.b64encode(tree.node(level, (size >> level) - 1)).decode()
            for level in edge
        }
        evidence["later_entries"] = [entry.decode() for entry in entries[size:]]
    return evidence
