"""One finished Open Hand game, built in process from a fixed seed, and its export bundle.

The tampering tests forge copies of this bundle. Everything is fixed (seed, game id, clock,
command ids, moves), so every run forges the very same log and reports the very same failures.
The events come from the real aggregate and the bundle from the same `event_out` the export
endpoint serves, so the forger starts from exactly what an auditor would download.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec

from domain import game
from domain.aggregate import GameAggregate, Recorded
from domain.commands import VoteCancel
from domain.perspective import FULL
from projections.events import event_out
from service.application.bundle import FORMAT, Bundle
from tests.audit.test_verify import failing, verify

GAME_ID = UUID("00000000-0000-4000-8000-000000000016")
SEED = hashlib.sha256(b"issue 16: every check bites").digest()
SEATS = 3
START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def player(seat: int) -> str:
    return f"player-{seat}"


class _Causes:
    """Command ids and timestamps as the service would give them, but counted, not drawn."""

    def __init__(self) -> None:
        self._ticks = itertools.count(1)

    def next(self) -> dict[str, Any]:
        tick = next(self._ticks)
        return {"command_id": f"{tick:032x}", "now": START + timedelta(seconds=tick)}


def _seated(causes: _Causes) -> GameAggregate:
    """A started game of SEATS players, every one with a client seed of their own."""
    created = game.create(
        game_id=str(GAME_ID),
        variant_id="open-hand",
        seat_count=SEATS,
        options={"first_leader": "high_card"},
        creator_id=player(0),
        creator_name="P0",
        client_seed="seat 0 was here",
        seed=SEED,
    )
    aggregate = GameAggregate.open(GAME_ID, created, actor="seat:0", **causes.next())
    for seat in range(1, SEATS):
        aggregate.join(
            player_id=player(seat), name=f"P{seat}", client_seed=f"seat {seat} too", **causes.next()
        )
    return aggregate


@cache
def _finished_events() -> tuple[Recorded, ...]:
    causes = _Causes()
    aggregate = _seated(causes)
    while aggregate.state.status == "active":
        rules, table = aggregate.state.rules, aggregate.state.table
        seat = rules.to_act(table)[0]
        # Each seat plays its strongest card: any fixed rule would do.
        move = rules.legal_commands(table, seat)[-1]
        aggregate.act(player_id=player(seat), command=move, **causes.next())
    return tuple(aggregate.pending_events)  # type: ignore[arg-type]


@cache
def _cancelled_events() -> tuple[Recorded, ...]:
    causes = _Causes()
    aggregate = _seated(causes)
    for seat in range(SEATS):  # unanimous vote_cancel: the game ends with GameCancelled
        aggregate.act(player_id=player(seat), command=VoteCancel(), **causes.next())
    return tuple(aggregate.pending_events)  # type: ignore[arg-type]


def _bundle(events: tuple[Recorded, ...]) -> dict[str, Any]:
    bundle = Bundle(
        format=FORMAT,
        game_id=str(GAME_ID),
        variant="open-hand",
        events=[event_out(recorded, FULL) for recorded in events],
    )
    decoded: dict[str, Any] = json.loads(msgspec.json.encode(bundle))
    return decoded


def finished_bundle() -> dict[str, Any]:
    """A fresh copy of the finished game's bundle, free to forge."""
    return copy.deepcopy(_bundle(_finished_events()))


def cancelled_bundle() -> dict[str, Any]:
    """A fresh copy of the bundle of a game cancelled by every seat's vote."""
    return copy.deepcopy(_bundle(_cancelled_events()))


def indexes(bundle: dict[str, Any], kind: str) -> list[int]:
    """Positions (0-based) of the events of type ``kind``."""
    return [i for i, event in enumerate(bundle["events"]) if event["type"] == kind]


def refused(tmp_path: Path, bundle: dict[str, Any], *receipts: str) -> tuple[list[str], str]:
    """`cardledger verify` on a forged bundle: it must be refused (exit 1). Returns the names of
    the failing checks in report order, and the whole printed report."""
    code, output = verify(tmp_path, bundle, *receipts)
    assert code == 1, output
    return failing(output), output
