"""Heartbeat scenarios' starting tables and moves, on top of tests/rules/scenario.py."""

from __future__ import annotations

from datetime import datetime, timedelta

import msgspec
import pytest

from domain import game, game_state
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event, Secret
from domain.game_state import GameState
from domain.perspective import Perspective, redact
from domain.variants.heartbeat.messages import (
    ChooseCard,
    RevealCard,
    RoundScored,
    TempoCardFlipped,
    TempoDeckShuffled,
)
from projections.views import view
from tests.rules.scenario import NOW, given, player, started

HANDS = [
    ("KS", "9H", "4C", "AS", "BJ"),
    ("QD", "7D", "3H", "2C", "10C"),
    ("JH", "8S", "5D", "AH", "6C"),
]


def flipped(round_: int, tempo: str, seconds: int = 5, at: datetime = NOW) -> TempoCardFlipped:
    deadline = at + timedelta(seconds=seconds) if tempo == "pressure" else None
    return TempoCardFlipped(round=round_, tempo=tempo, deadline=deadline)  # type: ignore[arg-type]


def heartbeat(
    tempo: tuple[str, ...] = (), options: dict | None = None, hands=HANDS, seconds: int = 5
) -> GameState:
    """A dealt game; ``tempo`` is the face-down tempo deck, top first (empty: no tempo deck)."""
    options = {"tempo_deck": 12 if tempo else 0, **(options or {})}
    events: list[Event] = started("heartbeat", hands, options)
    if tempo:
        deck = TempoDeckShuffled(size=len(tempo), cards=Secret(owner=None, value=tempo))
        events += [deck, flipped(1, tempo[0], seconds)]
    return given(events)


def act(
    state: GameState, seat: int, command: Command, now: datetime = NOW
) -> tuple[GameState, list[Event]]:
    events = game.act(state, player_id=player(seat), command=command, now=now, version=100)
    return game_state.fold(state, events), events


def moves(state: GameState, *steps: tuple[int, Command]) -> tuple[GameState, list[Event]]:
    every: list[Event] = []
    for seat, command in steps:
        state, events = act(state, seat, command)
        every += events
    return state, every


def choose(card: str) -> ChooseCard:
    return ChooseCard(card=card)


def reveal(card: str) -> RevealCard:
    return RevealCard(card=card)


def refused(state: GameState, seat: int, command: Command, now: datetime = NOW) -> RuleViolation:
    with pytest.raises(RuleViolation) as error:
        act(state, seat, command, now)
    return error.value


def scored(events: list[Event]) -> RoundScored:
    return next(e for e in events if isinstance(e, RoundScored))


def shown_json(state: GameState, seat: int | None, events: list[Event]) -> bytes:
    """Everything a perspective is served: its view and the redacted events."""
    perspective = Perspective(seat=seat)
    current = view(state, version=1, chain_head="head", perspective=perspective)
    return msgspec.json.encode([current, [redact(e, perspective) for e in events]])
