"""Players and games made through the application itself, for tests that need no HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

from domain.events import Event
from service.application import Cardledger
from service.auth import Principal


def players(ledger: Cardledger, count: int) -> list[Principal]:
    registered = [ledger.players.register(f"Player {n}") for n in range(count)]
    return [Principal(player_id=p.player_id, name=p.name) for p in registered]


def new_game(
    ledger: Cardledger,
    creator: Principal,
    variant: str = "open-hand",
    options: dict[str, Any] | None = None,
) -> UUID:
    """A new two-seat game, its creator seated."""
    created = ledger.commands.create(
        creator, variant=variant, seats=2, options=options or {}, client_seed="", idempotency=None
    )
    return UUID(created.game_id)


def game_events_in_log(ledger: Cardledger) -> Iterator[Event]:
    """Every game event in the log, in log order."""
    position = 0
    while batch := ledger.store.game_notifications(position, 500):
        for notification in batch:
            yield ledger.store.decode(notification).payload
        position = batch[-1].id
