"""The lifecycle every variant shares: create, join, start, act, leave, cancel, finish.

``decide`` functions return events or raise RuleViolation; ``evolve`` (domain.game_state) folds
one event into the state. Variant-specific rules are delegated to the game's Variant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import msgspec

from domain.commands import REFUSALS as COMMAND_REFUSALS
from domain.commands import Command, Leave, VoteCancel
from domain.deadlines import Expiry, events_of, is_due
from domain.errors import Failure, RuleViolation, forbidden, invalid
from domain.events import (
    BotSeat,
    CancelledBy,
    CancelVoted,
    Event,
    GameCancelled,
    GameCreated,
    GameFinished,
    GameStarted,
    PlayerLeft,
    SeatTaken,
    Secret,
    tag_of,
)
from domain.fairness import commitment
from domain.game_state import GameState, evolve, fold
from domain.seating import SeatedBot, bot_taken, check_free, seats_at_creation
from domain.variant import Turn, Variant
from domain.variants import REFUSALS as REGISTRY_REFUSALS
from domain.variants import VARIANTS, variant_by_id

MAX_CLIENT_SEED = 128
MAX_EXPIRIES = 64  # a bound on expiries in one batch; each starts a later deadline, if any

OVER: Mapping[str, Failure] = {
    "game_finished": Failure.CONFLICT,
    "game_cancelled": Failure.CONFLICT,
}
CREATE_REFUSALS: Mapping[str, Failure] = {
    **REGISTRY_REFUSALS,
    "invalid_seat_count": Failure.INVALID,
    "unknown_option": Failure.INVALID,
    "invalid_option": Failure.INVALID,
    "invalid_client_seed": Failure.INVALID,
    "invalid_seat": Failure.INVALID,
    "seat_taken": Failure.CONFLICT,
    "too_many_bots": Failure.INVALID,
}
JOIN_REFUSALS: Mapping[str, Failure] = {
    **OVER,
    "already_seated": Failure.CONFLICT,
    "game_full": Failure.CONFLICT,
    "invalid_client_seed": Failure.INVALID,
}
CANCEL_REFUSALS: Mapping[str, Failure] = {
    **OVER,
    "not_creator": Failure.FORBIDDEN,
    "game_already_started": Failure.CONFLICT,
}
BOT_REFUSALS: Mapping[str, Failure] = {
    **OVER,
    "not_creator": Failure.FORBIDDEN,
    "game_already_started": Failure.CONFLICT,
    "invalid_seat": Failure.INVALID,
    "seat_taken": Failure.CONFLICT,
}
ACT_REFUSALS: Mapping[str, Failure] = {
    **OVER,
    "game_not_started": Failure.CONFLICT,
    "not_seated": Failure.FORBIDDEN,
    "player_left": Failure.CONFLICT,
    "unknown_command": Failure.INVALID,
    "already_voted": Failure.CONFLICT,
}
"""What the shared lifecycle refuses, by use (a command's own rules add its variant's
``refusals``)."""
REFUSALS: Mapping[str, Failure] = {
    **CREATE_REFUSALS,
    **JOIN_REFUSALS,
    **CANCEL_REFUSALS,
    **BOT_REFUSALS,
    **ACT_REFUSALS,
}


def play_refusals() -> set[tuple[str, Failure]]:
    """Every refusal a seat's command can meet, in any hosted variant: the lifecycle's, the
    parsing's and the variants' own rules'."""
    found = {*ACT_REFUSALS.items(), *COMMAND_REFUSALS.items()}
    for variant in VARIANTS.values():
        found.update(variant.refusals.items())
    return found


def parse_options(variant: Variant[Any, Any], raw: dict[str, Any] | None) -> dict[str, Any]:
    """Options with defaults filled in, or a coded error naming the bad one."""
    raw = raw or {}
    allowed = set(variant.options_type.__struct_fields__)
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise invalid("unknown_option", f"{variant.id} has no option {unknown[0]!r}")
    try:
        options = msgspec.convert(raw, variant.options_type)
    except msgspec.ValidationError as error:
        raise invalid("invalid_option", f"invalid option for {variant.id}: {error}") from None
    resolved: dict[str, Any] = msgspec.to_builtins(options)
    return resolved


def _check_client_seed(client_seed: str) -> None:
    if len(client_seed) > MAX_CLIENT_SEED:
        raise invalid("invalid_client_seed", f"client_seed is longer than {MAX_CLIENT_SEED}")


def create(
    *,
    game_id: str,
    variant_id: str,
    seat_count: int,
    options: dict[str, Any] | None,
    creator_id: str,
    creator_name: str,
    client_seed: str,
    seed: bytes,
    bots: Sequence[SeatedBot] = (),
    now: datetime | None = None,
    matched_by: str | None = None,
    rematch_of: str | None = None,
) -> list[Event]:
    """The game, the creator at seat 0 (unless a bot is placed there: then the creator does
    not sit) and the bots asked for: first those with a seat, then the others at the lowest
    free seats. A table that is full at once starts at ``now`` (needed then)."""
    variant = variant_by_id(variant_id)
    if not variant.min_seats <= seat_count <= variant.max_seats:
        raise invalid(
            "invalid_seat_count",
            f"{variant.id} is for {variant.min_seats} to {variant.max_seats} players",
        )
    resolved = parse_options(variant, options)
    _check_client_seed(client_seed)
    creator = SeatTaken(seat=0, player_id=creator_id, name=creator_name, client_seed=client_seed)
    created = GameCreated(
        game_id=game_id,
        variant=variant.id,
        options=resolved,
        seat_count=seat_count,
        creator=creator_id,
        seed_commitment=commitment(seed),
        seed=Secret(owner=None, value=seed.hex()),
        matched_by=matched_by,
        rematch_of=rematch_of,
    )
    taken: list[Event] = [*seats_at_creation(seat_count, creator, bots)]
    return [created, *_started_if_full(evolve(None, created), taken, now, 0)]


def _started_if_full(
    state: GameState, taken: list[Event], now: datetime | None, version: int
) -> list[Event]:
    """``taken`` (seats being taken), and the start of the game if that fills the table."""
    if not fold(state, taken).full:
        return taken
    if now is None:
        raise ValueError("a game that starts needs the time it starts at")
    events = [*taken, GameStarted(seat_count=state.seat_count)]
    started = fold(state, events)
    turn = Turn(now, started.stream, version)
    return [*events, *state.rules.start(started.table, turn)]


def join(
    state: GameState, *, player_id: str, name: str, client_seed: str, now: datetime, version: int
) -> list[Event]:
    """The player takes the lowest free seat; the game starts if that was the last."""
    if state.seat_of(player_id) is not None:
        raise RuleViolation("already_seated", "you already have a seat at this game")
    if state.over:
        raise _ended(state)
    if state.status != "waiting":
        raise RuleViolation("game_full", "every seat of this game is taken")
    _check_client_seed(client_seed)
    seat = state.free_seats[0]
    taken: list[Event] = [
        SeatTaken(seat=seat, player_id=player_id, name=name, client_seed=client_seed)
    ]
    return _started_if_full(state, taken, now, version)


def add_bot(
    state: GameState,
    *,
    player_id: str | None,
    seat: int | None,
    bot: BotSeat,
    now: datetime,
    version: int,
) -> list[Event]:
    """The creator seats a bot before the start (at ``seat``, or the lowest free seat); the
    game starts if that was the last free seat."""
    if state.over:
        raise _ended(state)
    if player_id != state.creator:
        raise forbidden("not_creator", "only the creator may seat a bot")
    if state.status != "waiting":
        raise RuleViolation("game_already_started", "bots are seated before the start")
    if seat is None:
        seat = state.free_seats[0]
    check_free(seat, state.seat_count, taken=seat in state.taken_seats)
    return _started_if_full(state, [bot_taken(seat, bot)], now, version)


def creator_actor(state: GameState) -> str:
    """Who the creator acts as in the log: its seat, or ``creator`` when it does not sit."""
    seat = state.seat_of(state.creator)
    return "creator" if seat is None else f"seat:{seat}"


def cancel(state: GameState, *, by: CancelledBy, player_id: str | None) -> list[Event]:
    """Cancel by the creator (before the start) or by an operator (any time before the end)."""
    if state.over:
        raise _ended(state)
    if by == "creator":
        if player_id != state.creator:
            raise forbidden(
                "not_creator", "only the creator may cancel a game that has not started"
            )
        if state.status != "waiting":
            raise RuleViolation(
                "game_already_started",
                "a started game is cancelled by a unanimous vote_cancel or an operator",
            )
    return [GameCancelled(by=by, seed=state.seed or "")]


def act(
    state: GameState, *, player_id: str, command: Command, now: datetime, version: int
) -> list[Event]:
    """A seat's command, decided on the game as it stands at ``now``: ``act_late``'s events."""
    expired, events = act_late(
        state, player_id=player_id, command=command, now=now, version=version
    )
    return [*events_of(expired), *events]


def act_late(
    state: GameState, *, player_id: str, command: Command, now: datetime, version: int
) -> tuple[list[Expiry], list[Event]]:
    """A seat's command: the expiries due at ``now`` (empty when the command is on time) and
    the command's own events.

    RULES.md, Timers: if the table's deadline has passed, the expiry comes first, in the same
    batch (the very events ``expire`` would apply), and the command is decided on the state after
    it, as if the server had noticed the deadline first. Refused after the expiry, nothing is
    recorded (the server applies the expiry on its own).
    """
    seat = state.seat_of(player_id)
    if seat is None:
        raise forbidden("not_seated", "you have no seat at this game")
    expired = expiries(state, now=now, version=version)
    applied = events_of(expired)
    events = _decide(fold(state, applied), seat, command, now, version + len(applied))
    return expired, events


def _decide(
    state: GameState, seat: int, command: Command, now: datetime, version: int
) -> list[Event]:
    if state.over:
        raise _ended(state)
    if state.status != "active":
        raise RuleViolation("game_not_started", "this game is still waiting for players")
    if state.seat(seat).left:
        raise RuleViolation("player_left", "you have left this game")
    if isinstance(command, VoteCancel):
        return _vote_cancel(state, seat)
    if isinstance(command, Leave):
        return _leave(state, seat, Turn(now, state.stream, version))
    if type(command) not in state.rules.commands:
        raise invalid("unknown_command", f"{state.variant} has no command {tag_of(command)!r}")
    events = state.rules.decide(state.table, seat, command, Turn(now, state.stream, version))
    return _finish_if_over(state, events)


def expiry_due(state: GameState, now: datetime) -> bool:
    """Whether the game's running deadline has passed without an event applying it."""
    return state.status == "active" and is_due(state.rules.deadline(state.table), now)


def expire(state: GameState, *, now: datetime, version: int) -> list[Event]:
    """The events of every expiry due at ``now``, oldest first (empty if nothing is due)."""
    return events_of(expiries(state, now=now, version=version))


def expiries(state: GameState, *, now: datetime, version: int) -> list[Expiry]:
    """Every expiry due at ``now``, oldest first (empty if nothing is due).

    Each takes effect at its own deadline (the variant sees the deadline as the time, and the
    version before its first event as the decision's version), so what it records depends
    neither on who notices it nor when; a deadline it starts that has passed by ``now`` expires
    in the same batch.
    """
    applied: list[Expiry] = []
    for _ in range(MAX_EXPIRIES):
        if state.status != "active":
            break
        deadline = state.rules.deadline(state.table)
        if deadline is None or not is_due(deadline, now):
            break
        turn = Turn(deadline, state.stream, version)
        events = _finish_if_over(state, state.rules.expire(state.table, turn))
        if not events:
            break
        applied.append(Expiry(deadline=deadline, events=events))
        version += len(events)
        state = fold(state, events)
    return applied


def _leave(state: GameState, seat: int, turn: Turn) -> list[Event]:
    """A seat leaves for good. With that, the game may be cancelled (every seat still at the
    table had voted to cancel) or forfeited (fewer than two seats left); otherwise the variant
    carries on without the seat. A unanimous vote of those still seated outweighs the forfeit:
    judgement call ``vote-outweighs-forfeit`` (docs/rules)."""
    events: list[Event] = [PlayerLeft(seat=seat)]
    after = fold(state, events)
    if _unanimous(after):
        return [*events, GameCancelled(by="vote", seed=state.seed or "")]
    if sum(not s.left for _, s in after.taken) >= 2:
        events += state.rules.after_leave(after.table, seat, turn)
    return _finish_if_over(state, events)


def _vote_cancel(state: GameState, seat: int) -> list[Event]:
    if state.seat(seat).voted_cancel:
        raise RuleViolation("already_voted", "you have already voted to cancel")
    events: list[Event] = [CancelVoted(seat=seat)]
    if _unanimous(fold(state, events)):
        events.append(GameCancelled(by="vote", seed=state.seed or ""))
    return events


def _unanimous(state: GameState) -> bool:
    """Every seat still at the table has voted to cancel (and one still is)."""
    seated = [s for _, s in state.taken if not s.left]
    return bool(seated) and all(s.voted_cancel for s in seated)


def _finish_if_over(state: GameState, events: list[Event]) -> list[Event]:
    after = fold(state, events)
    outcome = state.rules.outcome(after.table)
    if outcome is not None:
        events = [
            *events,
            GameFinished(
                scores=outcome.scores,
                winners=outcome.winners,
                seed=state.seed or "",
                reason=outcome.reason,
            ),
        ]
    return events


def _ended(state: GameState) -> RuleViolation:
    """What a game that is over answers to everything."""
    if state.status == "cancelled":
        return RuleViolation("game_cancelled", "this game was cancelled")
    return RuleViolation("game_finished", "this game is over")
