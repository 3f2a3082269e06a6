"""What every registered variant must do, checked on seeded random games through the aggregate
(half of them played as a generic client plays: only commands sent exactly as listed).

At every step of a game that is not over: somebody is awaited and every awaited seat has a
legal command; every command listed to one of them (its whole ``legal_commands``, and a random
command of each choice form) is accepted when sent; and, at some steps, nothing served
to a seat or a spectator (its view and its events) holds a card it may not know (worked out
from the full log apart from the redaction, as tests/leaks does over HTTP). At the end, the
stored events fold back into the very same game. A failure names the variant and the seed.
"""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec

from domain import game, game_state
from domain.aggregate import GameAggregate
from domain.choices import command_at
from domain.errors import RuleViolation
from domain.perspective import Perspective
from projections.views import legal
from tests.property.playouts import cards_in, known_to, play, replayed, served_json

LEAVE_RATE = 0.02  # odd seeds only: even ones play every game to its own end
LEAK_CHECKS = 4  # the first steps of a game are checked, then about one in ten


def conforming_game(variant: str, seats: int, options: dict[str, Any], seed: int) -> None:
    """One seeded random game of ``variant``, checked all along (see the module docstring)."""
    rng = random.Random(f"conformance/{variant}/{seed}")
    steps = 0

    def check_step(aggregate: GameAggregate, rng: random.Random) -> None:
        nonlocal steps
        steps += 1
        if aggregate.state.status != "active":
            return
        check_awaited(aggregate, rng)
        if steps <= LEAK_CHECKS or rng.random() < 0.1:
            seat = rng.choice([None, *range(seats)])
            check_no_leak(aggregate, seat)

    try:
        leave_rate = LEAVE_RATE if seed % 2 else 0.0
        result = play(
            variant,
            seats,
            options,
            rng,
            leave_rate=leave_rate,
            check_step=check_step,
            listed_only=seed % 4 < 2,  # half the games as a generic client plays
        )
        assert result.aggregate.state.over, f"not over after {result.moves} moves"
        again = replayed(result.recorded)
        assert again.state == result.aggregate.state, "the folded events differ from the game"
        assert (again.version, again.chain_head) == (
            result.aggregate.version,
            result.aggregate.chain_head,
        )
    except (AssertionError, RuleViolation) as error:
        raise AssertionError(f"{variant} seed {seed}, step {steps}: {error}") from error


def check_awaited(aggregate: GameAggregate, rng: random.Random) -> None:
    """Somebody is awaited, each awaited seat has a legal command, and every command listed to
    one of them is accepted."""
    state = aggregate.state
    to_act = state.rules.to_act(state.table)
    assert to_act, "an active game awaits nobody"
    for seat in to_act:
        assert state.rules.legal_commands(state.table, seat), (
            f"seat {seat} awaited, can send nothing"
        )
    seat = rng.choice(to_act)
    listed = legal(state, seat)
    for command in [
        *listed.commands,
        *(command_at(f, rng.randrange(f.count)) for f in listed.forms),
    ]:
        try:
            events = game.act(
                state,
                player_id=state.seats[seat].player_id,
                command=command,
                now=aggregate.modified_on,
                version=aggregate.version,
            )
        except RuleViolation as refusal:
            raise AssertionError(f"seat {seat}'s listed {command} refused: {refusal}") from None
        game_state.fold(state, events)


def check_no_leak(aggregate: GameAggregate, seat: int | None) -> None:
    """What ``seat`` (None: a spectator) is served holds no card beyond what it may know: the
    full log with every secret it does not own removed, and its own hand."""
    recorded = aggregate.pending_events
    payloads = [event.payload for event in recorded]  # type: ignore[attr-defined]
    full = msgspec.json.decode(msgspec.json.encode(payloads))  # as JSON: secrets are objects
    allowed = cards_in(json.dumps(known_to(full, seat)))
    if seat is not None:
        allowed |= set(aggregate.state.rules.hand(aggregate.state.table, seat))
    served = served_json(aggregate, Perspective(seat=seat), recorded)  # type: ignore[arg-type]
    leaked = cards_in(served.decode()) - allowed
    who = "a spectator" if seat is None else f"seat {seat}"
    assert not leaked, f"{who} was served {sorted(leaked)}"
