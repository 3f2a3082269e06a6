"""Given events → when a command → then events or a coded error."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from domain import game, game_state
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event, GameCreated, GameStarted, HandDealt, SeatTaken, Secret
from domain.fairness import commitment
from domain.game_state import GameState

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
SEED = bytes(32)
GAME_ID = "00000000-0000-4000-8000-000000000001"


def player(seat: int) -> str:
    return f"player-{seat}"


def created(variant: str, seats: int, options: dict[str, Any] | None = None) -> list[Event]:
    rules = game.variant_by_id(variant)
    return [
        GameCreated(
            game_id=GAME_ID,
            variant=variant,
            options=game.parse_options(rules, options),
            seat_count=seats,
            creator=player(0),
            seed_commitment=commitment(SEED),
            seed=Secret(owner=None, value=SEED.hex()),
        ),
        *[
            SeatTaken(seat=s, player_id=player(s), name=f"P{s}", client_seed="")
            for s in range(seats)
        ],
    ]


def started(
    variant: str, hands: list[tuple[str, ...]], options: dict[str, Any] | None = None
) -> list[Event]:
    """A game whose deal is given explicitly (no shuffle): the 'given' part of a scenario."""
    dealt = HandDealt(
        hand=1,
        dealer=0,
        hands=tuple(Secret(owner=s, value=hand) for s, hand in enumerate(hands)),
        rest=Secret(owner=None, value=()),
    )
    return [*created(variant, len(hands), options), GameStarted(seat_count=len(hands)), dealt]


def given(events: list[Event]) -> GameState:
    state = game_state.evolve(None, events[0])
    return game_state.fold(state, events[1:])


def when(state: GameState, seat: int, command: Command, now: datetime = NOW) -> list[Event]:
    return game.act(state, player_id=player(seat), command=command, now=now, version=100)


def play_out(
    state: GameState, moves: list[tuple[int, Command]], now: datetime = NOW
) -> tuple[GameState, list[Event]]:
    """Apply several commands in order; returns the final state and every event."""
    events: list[Event] = []
    for seat, command in moves:
        new = when(state, seat, command, now)
        state = game_state.fold(state, new)
        events += new
    return state, events


def refused(state: GameState, seat: int, command: Command, now: datetime = NOW) -> RuleViolation:
    """The coded error a command is refused with (nothing is recorded)."""
    try:
        when(state, seat, command, now)
    except RuleViolation as refusal:
        return refusal
    raise AssertionError(f"seat {seat} was allowed {command}")


def refused_creation(variant: str, seats: int, options: dict[str, Any] | None) -> RuleViolation:
    """The coded error a game with these seats and options is refused with."""
    try:
        game.create(
            game_id="g",
            variant_id=variant,
            seat_count=seats,
            options=options,
            creator_id="p",
            creator_name="P",
            client_seed="",
            seed=SEED,
        )
    except RuleViolation as refused:
        return refused
    raise AssertionError(f"{variant} was created with {seats} seats and {options}")
