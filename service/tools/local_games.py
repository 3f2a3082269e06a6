"""Games played inside this process, straight through the application (no HTTP): for the
benchmarks and the tests that count what one command costs."""

from __future__ import annotations

import threading
import time
import uuid

from service.application import Cardledger
from service.auth import Principal


def register(ledger: Cardledger, count: int) -> list[Principal]:
    players = [ledger.players.register(f"P{index}") for index in range(count)]
    return [Principal(player_id=p.player_id, name=p.name) for p in players]


def seated(ledger: Cardledger, seats: int) -> tuple[uuid.UUID, list[Principal]]:
    """A running Open Hand game, every seat taken by a new player."""
    who = register(ledger, seats)
    return new_game(ledger, who), who


def new_game(ledger: Cardledger, who: list[Principal]) -> uuid.UUID:
    """An Open Hand game of ``who``, created by the first and joined by the others."""
    created = ledger.commands.create(
        who[0], variant="open-hand", seats=len(who), options=None, client_seed="", idempotency=None
    )
    game_id = uuid.UUID(created.game_id)
    for principal in who[1:]:
        ledger.commands.join(principal, game_id, client_seed="", idempotency=None)
    return game_id


def play_one(ledger: Cardledger, game_id: uuid.UUID, who: list[Principal]) -> None:
    """The first legal play of the first seat to act, decided from this process's copy."""
    known = ledger.games.cached(game_id)
    rules, table = known.state.rules, known.state.table
    seat = rules.to_act(table)[0]
    move = rules.legal_commands(table, seat)[0]
    body = {"type": "play", "card": move.card}  # type: ignore[attr-defined]
    ledger.commands.send(who[seat], game_id, body, idempotency=None, if_match=None)


def play_to_end(
    ledger: Cardledger, game_id: uuid.UUID, who: list[Principal], *, pause: float = 0.0
) -> int:
    """Play the game out; returns how many commands it took."""
    commands = 0
    while ledger.games.cached(game_id).state.status == "active":
        play_one(ledger, game_id, who)
        commands += 1
        if pause:
            time.sleep(pause)
    return commands


def keep_playing(
    ledger: Cardledger, who: list[Principal], stop: threading.Event, *, pause: float = 0.0
) -> int:
    """New games one after another until ``stop``; returns the writes made (creations and
    joins included)."""
    writes = 0
    while not stop.is_set():
        game_id = new_game(ledger, who)
        writes += len(who) + play_to_end(ledger, game_id, who, pause=pause)
    return writes
