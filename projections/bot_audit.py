"""The audit's ``bots`` check: every move of a bot seat re-run from that seat's view as it was.

A bot decides from exactly what its seat may see (the view ``GET /games/{id}/view`` returned for
it at that version and moment) and its own seed, derived from the game's seed (revealed at the
end). So once the game is over, each of its moves can be made again: fold the events before
its batch, build the seat's view at the batch's recorded time, ask the same level and algorithm
version, and compare with the command sealed in the batch. A bot that looked at anything else
(another hand, the deck, the seed's other uses) decides differently somewhere, and the check
names the event where.

The bots themselves live above this layer; the caller passes the function that re-runs one
(``bots.seated.bot_command``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from domain import game_state
from domain.aggregate import Recorded
from domain.chain import canonical
from domain.commands import Command
from domain.events import BotSeat, SeatTaken, tag_of
from domain.fairness import bot_seed
from domain.game_state import GameState
from domain.perspective import Perspective
from projections.views import View, view

BotRerun = Callable[[View, BotSeat, bytes], Command | None]
"""A bot's decision again: the seat's view, the bot (level, algorithm) and its seed in, the
command it sends (None: nothing is awaited of it) out."""


class BotMoveDiffers(Exception):
    """A bot seat's recorded command is not what its bot decides from its view."""

    def __init__(self, version: int, detail: str) -> None:
        super().__init__(detail)
        self.version = version
        self.detail = detail


def seats_bots(events: Sequence[Recorded]) -> bool:
    """Whether any seat of the game is a bot's."""
    return any(isinstance(r.payload, SeatTaken) and r.payload.bot is not None for r in events)


def rerun_bot_moves(game_id: str, batches: Sequence[list[Recorded]], rerun: BotRerun) -> int:
    """Re-run every bot move of the batches (a whole game, seed revealed); returns how many
    there were, or raises BotMoveDiffers naming the first that differs."""
    state: GameState | None = None
    moves = 0
    for batch in batches:
        if (
            state is not None
            and state.seed is not None
            and _check_move(game_id, state, batch, rerun)
        ):
            moves += 1
        for recorded in batch:
            state = game_state.evolve(state, recorded.payload)
    return moves


def _check_move(game_id: str, state: GameState, batch: list[Recorded], rerun: BotRerun) -> bool:
    """Whether the batch is a bot's move (raising BotMoveDiffers if it is not the bot's)."""
    first = batch[0]
    cause = next((r for r in batch if r.expiry is None), first)  # the command's first event
    if cause.command is None or not first.actor.startswith("seat:"):
        return False
    seat = int(first.actor.removeprefix("seat:"))
    info = state.seats[seat] if 0 <= seat < len(state.seats) else None
    if info is None or info.bot is None:
        return False
    assert state.seed is not None
    seen = view(
        state,
        version=first.originator_version - 1,
        chain_head=first.prev_hash,
        perspective=Perspective(seat=seat),
        now=first.timestamp,
    )
    decided = rerun(seen, info.bot, bot_seed(bytes.fromhex(state.seed), game_id, seat))
    sent = cause.command.value
    if decided is None or canonical(decided) != canonical(sent):
        kind = sent.get("type") if isinstance(sent, dict) else None
        instead = "nothing" if decided is None else f"{tag_of(decided)} {_details(decided)}"
        raise BotMoveDiffers(
            cause.originator_version,
            f"event {cause.originator_version}: the level {info.bot.level} bot at seat {seat}"
            f" sent {kind} {_details(sent)}, but from its own view it decides {instead}",
        )
    return True


def _details(command: object) -> str:
    plain = msgspec.to_builtins(command)
    if not isinstance(plain, dict):
        return str(plain)
    fields = {key: value for key, value in plain.items() if key != "type"}
    return msgspec.json.encode(fields).decode() if fields else ""
