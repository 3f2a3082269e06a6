"""Games of bots alone, played in process exactly as the service's driver plays them (each
awaited bot seat decides from its own view, ``service.background.bots.next_move``), with a hook
that lets a test stand in for one decision: the forger's and the cheat's way in.

Everything is fixed (seed, game id, clock, command ids), so each run records the same log.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import msgspec

from domain import game
from domain.aggregate import GameAggregate, Recorded
from domain.commands import Command
from domain.events import BotSeat
from domain.perspective import FULL
from domain.seating import SeatedBot, creation_actor
from projections.events import event_out
from service.application.bundle import FORMAT, Bundle
from service.background.bots import next_move
from tests.support.client import SHORT_GAMES

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
STEP = timedelta(seconds=1)
LEVEL_1 = BotSeat(level=1, algorithm=1)
MAX_MOVES = 5_000

Decision = Callable[[GameAggregate, int, datetime, Command], Command]
"""Given the game, the seat, the moment and the command its bot decided: the one sent."""


def game_id_of(variant: str) -> UUID:
    return UUID(bytes=hashlib.sha256(f"bot game {variant}".encode()).digest()[:16], version=4)


def bot_game(variant: str, *, decide: Decision | None = None) -> tuple[str, list[Recorded]]:
    """A SHORT_GAMES game of ``variant`` with a level-1 bot in every seat, to its end."""
    seats, options = SHORT_GAMES[variant]
    game_id = game_id_of(variant)
    created = game.create(
        game_id=str(game_id),
        variant_id=variant,
        seat_count=seats,
        options=options,
        creator_id="host",
        creator_name="Host",
        client_seed="",
        seed=hashlib.sha256(f"bot game seed {variant}".encode()).digest(),
        bots=[SeatedBot(bot=LEVEL_1, seat=seat) for seat in range(seats)],
        now=START,
    )
    now = START
    aggregate = GameAggregate.open(
        game_id, created, actor=creation_actor(created), command_id=f"{0:032x}", now=now
    )
    for move in range(1, MAX_MOVES):
        if aggregate.state.status != "active":
            return str(game_id), list(aggregate.pending_events)  # type: ignore[arg-type]
        now += STEP
        found = next_move(aggregate, now)
        if found is None:  # nobody is awaited: the server applies the next deadline
            deadline = aggregate.state.rules.deadline(aggregate.state.table)
            assert deadline is not None, f"nothing awaited at version {aggregate.version}"
            now = max(now, deadline)
            aggregate.expire(command_id=f"{move:032x}", now=now)
            continue
        seat, command = found
        if decide is not None:
            command = decide(aggregate, seat, now, command)
        aggregate.act(
            player_id=aggregate.state.seat(seat).player_id,
            command=command,
            command_id=f"{move:032x}",
            now=now,
        )
    raise AssertionError(f"the {variant} game did not end in {MAX_MOVES} moves")


def bundle_of(game_id: str, variant: str, events: list[Recorded]) -> dict[str, Any]:
    """The export bundle of a finished game, as the service serves it."""
    bundle = Bundle(
        format=FORMAT,
        game_id=game_id,
        variant=variant,
        events=[event_out(recorded, FULL) for recorded in events],
    )
    decoded: dict[str, Any] = json.loads(msgspec.json.encode(bundle))
    return decoded
