"""What a player hears about their games: the messages of their stream (and, later, of their
webhook), derived from a game's state before and after each command.

A command's events are written together and lie together in the log, so messages are derived
once per run of them (the state between two of a command's events may await a seat nobody
will ever wait for). Every message is a pure function of the log: derived again from the same
events it comes out the same, with the same id, which is what lets the read models rebuild
them and a delivery be keyed by it.

Kinds are an open set: each has a name here and a deriver. ``rematch_offered`` does not come
from a game's run but from a rematch's offer (``offer_messages``), which the read models read
from the log beside the games' events.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Literal

import msgspec

from domain.game_state import GameState
from domain.matchmaking.rematch import RematchOffered

Kind = Literal["game_started", "your_turn", "game_over", "matched", "rematch_offered"]
KINDS: tuple[Kind, ...] = ("game_started", "your_turn", "game_over", "matched", "rematch_offered")


class PlayerMessage(msgspec.Struct, frozen=True, kw_only=True):
    """One message to one player about one game. ``id`` orders a player's messages (the log
    position of the command's last event, then the kind) and is what Last-Event-ID resumes
    after; ``seats`` are the player's seats it concerns (a player may hold several)."""

    id: str
    kind: Kind
    game_id: str
    variant: str
    version: int  # the game's version once the command's events are applied
    status: str  # the game's status then: waiting, active, finished or cancelled
    seats: tuple[int, ...]
    deadline: datetime | None = None  # your_turn: when the server acts if nobody does
    at: datetime  # when the command's last event was recorded
    rematch_of: str | None = None  # the game is a rematch of this ended game
    offered_by: str | None = None  # rematch_offered: the name of who offered it


class Run(msgspec.Struct, frozen=True, kw_only=True):
    """One command's events in one game, as the messages need them."""

    position: int  # the log position of its last event
    before: GameState | None  # None: the run created the game
    after: GameState
    version: int
    at: datetime
    actors: frozenset[str]  # who made its events: "seat:N", "server" or "admin"


Addressed = tuple[str, PlayerMessage]  # (player id, message)
MAX_POSITION_DIGITS = 18
MAX_KIND_LENGTH = 40


def message_id(position: int, kind: str) -> str:
    return f"{position}-{kind}"


def parse_message_id(text: str) -> tuple[int, str] | None:
    """(position, kind) of a message id, or None if it is not one."""
    position, dash, kind = text.strip().partition("-")
    if not dash or not position.isdigit() or not kind.replace("_", "").isalpha():
        return None
    if len(position) > MAX_POSITION_DIGITS or len(kind) > MAX_KIND_LENGTH:
        return None  # no log position is that long (the stores keep 8-byte integers)
    return int(position), kind


def messages_of(run: Run) -> list[Addressed]:
    """Every message a run makes, in id order (by kind within the run)."""
    found: list[Addressed] = []
    for kind in sorted(DERIVERS):
        found += DERIVERS[kind](run)
    return found


def _players(state: GameState, seats: list[int]) -> dict[str, tuple[int, ...]]:
    """The people (not bots) at these seats, each with their seats among them."""
    by_player: dict[str, tuple[int, ...]] = {}
    for seat in seats:
        info = state.seats[seat]
        if info is not None and info.bot is None:
            by_player[info.player_id] = (*by_player.get(info.player_id, ()), seat)
    return by_player


def _message(run: Run, kind: Kind, seats: tuple[int, ...]) -> PlayerMessage:
    state = run.after
    deadline = None
    if kind == "your_turn":
        deadline = state.rules.deadline(state.table)
    return PlayerMessage(
        id=message_id(run.position, kind),
        kind=kind,
        game_id=state.game_id,
        variant=state.variant,
        version=run.version,
        status=state.status,
        seats=seats,
        deadline=deadline,
        at=run.at,
        rematch_of=state.rematch_of,
    )


def _to_everyone(run: Run, kind: Kind) -> list[Addressed]:
    players = _players(run.after, run.after.taken_seats)
    return [(player, _message(run, kind, seats)) for player, seats in players.items()]


def _awaited(state: GameState | None) -> set[int]:
    if state is None or state.status != "active":
        return set()
    return set(state.rules.to_act(state.table))


def _started(run: Run) -> bool:
    return run.after.status == "active" and (run.before is None or run.before.status == "waiting")


def game_started(run: Run) -> list[Addressed]:
    return _to_everyone(run, "game_started") if _started(run) else []


def matched(run: Run) -> list[Addressed]:
    """The table a matchmaking queue formed has started: everyone it seated hears of it (its
    game starts in the write that forms it, so this comes with ``game_started``)."""
    if run.after.matched_by is None or not _started(run):
        return []
    return _to_everyone(run, "matched")


def game_over(run: Run) -> list[Addressed]:
    if not run.after.over or (run.before is not None and run.before.over):
        return []
    return _to_everyone(run, "game_over")


def your_turn(run: Run) -> list[Addressed]:
    """A seat awaited after the run hears of it, unless it was awaited before and the run was
    only other seats' moves (another player choosing at the same time does not make a new
    turn; the server's or the seat's own events may: a timeout, a trick won and led again)."""
    before = _awaited(run.before)
    others_only = all(actor.startswith("seat:") for actor in run.actors)
    turns = [
        seat
        for seat in sorted(_awaited(run.after))
        if seat not in before or not others_only or f"seat:{seat}" in run.actors
    ]
    players = _players(run.after, turns)
    return [(player, _message(run, "your_turn", seats)) for player, seats in players.items()]


DERIVERS: dict[Kind, Callable[[Run], list[Addressed]]] = {
    "game_started": game_started,
    "your_turn": your_turn,
    "game_over": game_over,
    "matched": matched,
}


def offer_messages(
    position: int, at: datetime, offer: RematchOffered, ended: GameState, version: int
) -> list[Addressed]:
    """A rematch of ``ended`` (at ``version``) was offered: every other person seated there
    hears of it, with who offered it."""
    seats = _players(ended, ended.taken_seats)
    seats.pop(offer.player_id, None)
    return [
        (
            player,
            PlayerMessage(
                id=message_id(position, "rematch_offered"),
                kind="rematch_offered",
                game_id=ended.game_id,
                variant=ended.variant,
                version=version,
                status=ended.status,
                seats=held,
                at=at,
                rematch_of=ended.rematch_of,
                offered_by=offer.name,
            ),
        )
        for player, held in seats.items()
    ]
