"""Random legal games through the domain, with the checks every variant must pass."""

from __future__ import annotations

import os
import random
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from domain.aggregate import GameAggregate, Recorded, project
from domain.choices import Choice, pick
from domain.commands import COMMON_COMMANDS, Command, Leave, VoteCancel, parse_command
from domain.game_state import GameState
from domain.perspective import Perspective, redact
from domain.variants import deadline_started
from projections.views import as_of, legal, view
from service.store.mapper import EnvelopeMapper
from service.tools.simulate import seated_game

START = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
CARD = re.compile(r'"((?:10|[2-9JQKA])[SHDC]|BJ|RJ)"')  # a card code as a JSON string


class Playout(msgspec.Struct, kw_only=True):
    aggregate: GameAggregate
    recorded: list[Recorded]
    moves: int


def choose(legal: list[Command | Choice], rng: random.Random, leave_rate: float) -> Command:
    """Leave now and then; otherwise one command drawn uniformly from every legal command the
    list stands for (a choice form weighs as many as it holds: ``domain.choices.pick``)."""
    rules_moves = [c for c in legal if not isinstance(c, VoteCancel | Leave)]
    if not rules_moves or rng.random() < leave_rate:
        return Leave()
    return pick(rules_moves, rng)


def choose_listed(state: GameState, seat: int, rng: random.Random, leave_rate: float) -> Command:
    """What a generic client does: leave now and then; otherwise one entry of the view's
    ``legal_commands`` drawn uniformly, sent exactly as listed (as JSON, parsed as the service
    parses a body)."""
    listed = [c for c in legal(state, seat).commands if not isinstance(c, VoteCancel | Leave)]
    assert listed, f"seat {seat} is awaited but is listed no command to send"
    if rng.random() < leave_rate:
        return Leave()
    body = msgspec.json.decode(msgspec.json.encode(rng.choice(listed)))
    return parse_command((*COMMON_COMMANDS, *state.rules.commands), body)


def play(
    variant: str,
    seats: int,
    options: dict[str, Any],
    rng: random.Random,
    *,
    leave_rate: float = 0.0,
    check_step: Any = None,
    max_moves: int = 10_000,
    pause_rate: float = 0.0,
    listed_only: bool = False,
) -> Playout:
    """A random game, played to its end: each move a seat the game waits for sends a random
    legal command (``listed_only``: one of its view's ``legal_commands`` exactly as listed),
    one second after the last (``pause_rate``: sometimes a minute after, past any deadline)."""
    aggregate = seated_game(variant, seats, options, rng, START)
    check_deadline = DeadlineCheck()
    check_deadline(aggregate)
    now = START
    moves = 0
    while aggregate.state.status == "active" and moves < max_moves:
        now += timedelta(seconds=60 if rng.random() < pause_rate else 1)
        # What a seat reading its view at ``now`` is offered: the game after any expiry that is
        # due, recorded or not. Its command, sent at ``now``, must be taken.
        state = as_of(aggregate.state, version=aggregate.version, now=now)
        if state.status != "active":  # a due expiry ends the game: only the server moves
            aggregate.expire(command_id=f"x{moves}", now=now)
            check_deadline(aggregate)
            break
        to_act = state.rules.to_act(state.table)
        assert to_act, "an active game must wait for somebody"
        seat = rng.choice(to_act)
        if listed_only:
            command = choose_listed(state, seat, rng, leave_rate)
        else:
            offered = state.rules.legal_moves(state.table, seat)
            assert offered, f"seat {seat} is awaited but has no legal command"
            command = choose(offered, rng, leave_rate)
        aggregate.act(player_id=f"p{seat}", command=command, command_id=f"m{moves}", now=now)
        moves += 1
        check_deadline(aggregate)
        if check_step is not None:
            check_step(aggregate, rng)
            check_deadline(aggregate)
    assert aggregate.state.status != "active", f"the game did not end in {max_moves} moves"
    recorded: list[Recorded] = aggregate.collect_events()  # type: ignore[assignment]
    check_result(aggregate)
    return Playout(aggregate=aggregate, recorded=recorded, moves=moves)


def check_result(aggregate: GameAggregate) -> None:
    """What RULES.md says of every ending (Leaving): a seat that left never wins; with fewer
    than two seats left the game ends by forfeit, won by the seat left, if any."""
    state = aggregate.state
    if state.outcome is None:
        return
    seated = tuple(index for index, seat in enumerate(state.seats) if not seat.left)
    assert set(state.outcome.winners) <= set(seated), (state.outcome, seated)
    if len(seated) < 2:
        assert (state.outcome.reason, state.outcome.winners) == ("forfeit", seated)
    else:
        assert state.outcome.reason == "complete"


class DeadlineCheck:
    """The deadline watcher learns deadlines from the events that start them alone: the
    table's running deadline must always be the latest one started, or none."""

    def __init__(self) -> None:
        self.latest: datetime | None = None
        self.seen = 0

    def __call__(self, aggregate: GameAggregate) -> None:
        events: list[Recorded] = aggregate.pending_events  # type: ignore[assignment]
        for event in events[self.seen :]:
            started = deadline_started(event.payload)
            if started is not None:
                self.latest = started
        self.seen = len(events)
        state = aggregate.state
        if state.status == "active":
            running = state.rules.deadline(state.table)
            assert running is None or running == self.latest, (running, self.latest)


def replayed(recorded: list[Recorded]) -> GameAggregate:
    """The game rebuilt from its events after a round trip through the stored form."""
    mapper = EnvelopeMapper()
    stored = [mapper.to_stored_event(event) for event in recorded]
    aggregate = project(None, [mapper.to_domain_event(s) for s in stored])
    assert aggregate is not None
    return aggregate


def served_json(
    aggregate: GameAggregate, perspective: Perspective, recorded: list[Recorded]
) -> bytes:
    """Everything served to a perspective: its view and its redacted events."""
    current = view(
        aggregate.state,
        version=aggregate.version,
        chain_head=aggregate.chain_head,
        perspective=perspective,
    )
    events = [redact(r.payload, perspective) for r in recorded]
    return msgspec.json.encode([current, events])


def card_tokens(cards: set[str]) -> list[bytes]:
    return [f'"{card}"'.encode() for card in cards]


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(text))


def known_to(value: Any, seat: int | None) -> Any:
    """A full event (as JSON builtins) with every secret that ``seat`` does not own emptied
    (None: a spectator): what the seat may know of it, worked out apart from the redaction."""
    if isinstance(value, dict):
        if set(value) == {"owner", "value", "salt"} and (seat is None or value["owner"] != seat):
            return None
        return {key: known_to(item, seat) for key, item in value.items()}
    if isinstance(value, list):
        return [known_to(item, seat) for item in value]
    return value


def games_per_test() -> int:
    return int(os.environ.get("CARDLEDGER_PLAYOUTS", "1000"))
