"""Games of bots, played in process through the domain: for duels, tests and benchmarks.

Each game comes from a deal number alone (its seed, id and the bots' seeds are derived from it),
so a duel's deals can be dealt again: the same number, the same cards, whoever sits where.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from bots.contract import Player, bot_draw
from domain import game
from domain.aggregate import GameAggregate
from domain.commands import Command
from domain.game_state import GameState
from domain.perspective import Perspective
from projections.views import View, as_of, view

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
STEP = timedelta(milliseconds=10)  # between two moves: bots answer at once, inside any deadline
MAX_MOVES = 20_000


class BotRefused(AssertionError):
    """A bot sent a command the rules refused: a bug in the bot, never a game event."""


class Stalled(AssertionError):
    """A game of bots did not end within ``MAX_MOVES``."""


def _digest(*parts: object) -> bytes:
    return hashlib.sha256("/".join(map(str, parts)).encode()).digest()


def deal_seed(variant: str, deal: int) -> bytes:
    """The game seed of deal number ``deal``: the cards it deals are the same at every seating."""
    return _digest("cardledger/deal", variant, deal)


def bot_seed(variant: str, deal: int, seat: int) -> bytes:
    """The seed of the bot at ``seat`` in deal ``deal``."""
    return _digest("cardledger/bot", variant, deal, seat)


def new_game(
    variant: str, seat_count: int, deal: int, options: dict[str, Any] | None = None
) -> GameAggregate:
    """Deal number ``deal`` of ``variant``, every seat taken (players p0..), not yet played."""
    game_id = uuid.UUID(bytes=_digest("cardledger/game", variant, deal)[:16], version=4)
    events = game.create(
        game_id=str(game_id),
        variant_id=variant,
        seat_count=seat_count,
        options=options,
        creator_id="p0",
        creator_name="P0",
        client_seed="",
        seed=deal_seed(variant, deal),
    )
    aggregate = GameAggregate.open(game_id, events, actor="seat:0", command_id="c0", now=START)
    for seat in range(1, seat_count):
        aggregate.join(
            player_id=f"p{seat}", name=f"P{seat}", client_seed="", command_id=f"j{seat}", now=START
        )
    return aggregate


def seat_view(aggregate: GameAggregate, seat: int, now: datetime) -> View:
    """What ``seat`` sees at ``now``: the view the service serves it."""
    return view(
        aggregate.state,
        version=aggregate.version,
        chain_head=aggregate.chain_head,
        perspective=Perspective(seat=seat),
        now=now,
    )


Watcher = Callable[[GameAggregate, int, View, Command], None]
"""Called before each bot command is sent: the game, the seat, its view and its command."""


def play_out(
    aggregate: GameAggregate,
    players: Sequence[Player],
    seeds: Sequence[bytes],
    *,
    watch: Watcher | None = None,
) -> GameAggregate:
    """Play the game to its end, ``players[seat]`` deciding for each seat from its own view and
    draw, ``STEP`` apart; where nobody is awaited the clock moves to the deadline. Raises
    BotRefused if a bot's command is refused, Stalled if the game does not end."""
    now = START
    game_id = str(aggregate.id)
    for move in range(MAX_MOVES):
        now += STEP
        state: GameState = as_of(aggregate.state, version=aggregate.version, now=now)
        if state.status != "active":
            if aggregate.state.status == "active":  # a due expiry ends it
                aggregate.expire(command_id=f"x{move}", now=now)
            return aggregate
        awaited = state.rules.to_act(state.table)
        if not awaited:
            deadline = state.rules.deadline(state.table)
            if deadline is None:
                raise Stalled(
                    f"nobody is awaited and no deadline runs at version {aggregate.version}"
                )
            now = max(now, deadline)
            aggregate.expire(command_id=f"x{move}", now=now)
            continue
        seat = awaited[0]
        seen = seat_view(aggregate, seat, now)
        command = players[seat].choose(seen, bot_draw(seeds[seat], game_id, seat, seen.version))
        if watch is not None:
            watch(aggregate, seat, seen, command)
        try:
            aggregate.act(player_id=f"p{seat}", command=command, command_id=f"m{move}", now=now)
        except Exception as error:
            raise BotRefused(
                f"seat {seat} sent {command!r} at version {seen.version}: {error}"
            ) from error
    raise Stalled(f"the game did not end in {MAX_MOVES} moves")
