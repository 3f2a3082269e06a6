"""What a perspective sees of a game: the player/spectator view and the public summary."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec

from domain.commands import Command, Leave, VoteCancel
from domain.game import GameState
from domain.perspective import Perspective


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    player_id: str
    name: str
    left: bool
    voted_cancel: bool


class View(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    variant: str
    status: str
    version: int
    chain_head: str
    seat: int | None
    hand: tuple[str, ...] | None
    hands: tuple[tuple[str, ...] | None, ...]  # every hand this perspective may see, else None
    hand_sizes: tuple[int, ...]
    to_act: tuple[int, ...]
    deadline: datetime | None
    legal_commands: list[Command]
    scores: tuple[int, ...]
    winners: tuple[int, ...] | None
    seats: tuple[SeatView, ...]
    seat_count: int
    options: dict[str, Any]
    seed_commitment: str
    seed: str | None
    table: Any


def seat_views(state: GameState) -> tuple[SeatView, ...]:
    return tuple(
        SeatView(
            seat=index,
            player_id=seat.player_id,
            name=seat.name,
            left=seat.left,
            voted_cancel=seat.voted_cancel,
        )
        for index, seat in enumerate(state.seats)
    )


def legal_commands(state: GameState, seat: int | None) -> list[Command]:
    if seat is None or state.status != "active" or state.seats[seat].left:
        return []
    commands = state.rules.legal_commands(state.table, seat)
    if not state.seats[seat].voted_cancel:
        commands.append(VoteCancel())
    commands.append(Leave())
    return commands


def view(state: GameState, *, version: int, chain_head: str, perspective: Perspective) -> View:
    """The game as ``perspective`` sees it. Nothing here exceeds what that perspective may see."""
    rules = state.rules
    table = state.table
    started = table is not None
    seat = perspective.seat
    return View(
        game_id=state.game_id,
        variant=state.variant,
        status=state.status,
        version=version,
        chain_head=chain_head,
        seat=seat,
        hand=rules.hand(table, seat) if started and seat is not None else None,
        hands=tuple(
            rules.hand(table, index) if started and (perspective.full or index == seat) else None
            for index in range(state.seat_count)
        ),
        hand_sizes=rules.hand_sizes(table) if started else (),
        to_act=rules.to_act(table) if state.status == "active" else (),
        deadline=rules.deadline(table) if state.status == "active" else None,
        legal_commands=legal_commands(state, seat),
        scores=rules.scores(table) if started else (0,) * state.seat_count,
        winners=state.outcome.winners if state.outcome else None,
        seats=seat_views(state),
        seat_count=state.seat_count,
        options=state.options,
        seed_commitment=state.seed_commitment,
        seed=state.revealed_seed,
        table=rules.public_table(table, perspective) if started else None,
    )
