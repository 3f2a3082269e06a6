"""What a perspective sees of a game: the player/spectator view and the public summary."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec

from domain import game, game_state
from domain.choices import Choice, Listed, split
from domain.commands import Command, Leave, VoteCancel
from domain.events import BotSeat
from domain.game_state import GameState
from domain.perspective import Perspective


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    player_id: str
    name: str
    left: bool
    voted_cancel: bool
    bot: BotSeat | None
    """The bot's level and algorithm version when the house plays this seat, else null."""


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
    """Commands to send as they are: every legal one, except that a kind with too many to list
    is here by its representatives only (see domain.choices)."""
    choice_forms: list[Choice]
    """The kinds too many to list, each as a form whose expansion is exactly its legal
    commands (see domain.choices); empty when ``legal_commands`` is every legal command."""
    scores: tuple[int, ...]
    winners: tuple[int, ...] | None
    end_reason: str | None
    """How the game ended: ``complete``, ``forfeit`` or ``cancelled`` (None while it runs)."""
    void: bool
    """A cancelled game: the scores are the points as they stood, nobody won or ranks."""
    expiry_pending: bool
    """A deadline had passed when this view was made: it shows the game after that expiry,
    which the server records in the log shortly (``version`` is still the stored one)."""
    seats: tuple[SeatView, ...]
    """The taken seats, by number (a bot may sit at a seat beyond a free one)."""
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
            bot=seat.bot,
        )
        for index, seat in state.taken
    )


def legal(state: GameState, seat: int | None) -> Listed:
    """What ``seat`` may do, as its view lists it: the variant's moves, then the shared ones."""
    if seat is None or state.status != "active" or state.seat(seat).left:
        return Listed(commands=[], forms=[])
    listed = split(state.rules.legal_moves(state.table, seat))
    if not state.seat(seat).voted_cancel:
        listed.commands.append(VoteCancel())
    listed.commands.append(Leave())
    return listed


def end_reason(state: GameState) -> str | None:
    if state.status == "cancelled":
        return "cancelled"
    return state.outcome.reason if state.outcome is not None else None


def as_of(state: GameState, *, version: int, now: datetime | None) -> GameState:
    """The game as it stands at ``now``: after any expiry that is due but not yet recorded
    (RULES.md, Timers: what a seat may do never depends on whether the server noticed)."""
    if now is None or not game.expiry_due(state, now) or state.stream is None:
        return state
    return game_state.fold(state, game.expire(state, now=now, version=version))


def view(
    state: GameState,
    *,
    version: int,
    chain_head: str,
    perspective: Perspective,
    now: datetime | None = None,
) -> View:
    """The game as ``perspective`` sees it. Nothing here exceeds what that perspective may see.

    With ``now``, a deadline that has passed is applied first (see ``as_of``), so the view and
    its legal commands are those a command sent at ``now`` would be decided on.
    """
    current = as_of(state, version=version, now=now)
    rules = current.rules
    table = current.table
    started = table is not None
    active = current.status == "active"
    seat = perspective.seat
    moves = legal(current, seat)
    return View(
        game_id=current.game_id,
        variant=current.variant,
        status=current.status,
        version=version,
        chain_head=chain_head,
        seat=seat,
        hand=rules.hand(table, seat) if started and seat is not None else None,
        hands=tuple(
            rules.hand(table, index) if started and (perspective.full or index == seat) else None
            for index in range(current.seat_count)
        ),
        hand_sizes=rules.hand_sizes(table) if started else (),
        to_act=rules.to_act(table) if active else (),
        deadline=rules.deadline(table) if active else None,
        legal_commands=moves.commands,
        choice_forms=moves.forms,
        scores=rules.scores(table) if started else (0,) * current.seat_count,
        winners=current.outcome.winners if current.outcome else None,
        end_reason=end_reason(current),
        void=current.status == "cancelled",
        expiry_pending=current is not state,
        seats=seat_views(current),
        seat_count=current.seat_count,
        options=current.options,
        seed_commitment=current.seed_commitment,
        seed=state.revealed_seed,  # revealed by the log alone, never by a pending expiry
        table=rules.public_table(table, perspective) if started else None,
    )
