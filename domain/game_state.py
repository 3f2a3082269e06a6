"""A game's state and how each event changes it: the fold every decision, view and replay
starts from (domain.game decides the events)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

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
)
from domain.fairness import RandomStream
from domain.kept import kept
from domain.variant import Outcome, Variant
from domain.variants import VARIANTS


class SeatInfo(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    name: str
    client_seed: str = ""
    bot: BotSeat | None = None
    left: bool = False
    voted_cancel: bool = False


class GameState(msgspec.Struct, frozen=True, kw_only=True, dict=True):
    """``dict``: room for what is worked out from the fields once per state (``rules``,
    ``taken``, ``stream``), which a command and a view each ask for several times, and for the
    state the last event it was evolved by led to (see ``evolve``)."""

    game_id: str
    variant: str
    options: dict[str, Any]
    seat_count: int
    creator: str
    seed_commitment: str
    seed: str | None  # hex; None when folded from events whose seed was redacted
    seats: tuple[SeatInfo | None, ...] = ()
    """One entry per seat, None while it is free (seats need not fill in order: a bot can be
    placed at any seat)."""
    status: str = "waiting"  # waiting, active, finished, cancelled
    table: Any = None
    outcome: Outcome | None = None
    cancelled_by: CancelledBy | None = None
    revealed_seed: str | None = None
    matched_by: str | None = None  # the queue that formed the table, if one did
    rematch_of: str | None = None  # the ended game this one is a rematch of

    @kept
    def rules(self) -> Variant[Any, Any]:
        return VARIANTS[self.variant]  # checked when the game was created

    def seat_of(self, player_id: str) -> int | None:
        for index, seat in self.taken:
            if seat.player_id == player_id:
                return index
        return None

    @kept
    def taken(self) -> tuple[tuple[int, SeatInfo], ...]:
        """The taken seats, by number."""
        return tuple((index, seat) for index, seat in enumerate(self.seats) if seat is not None)

    @property
    def taken_seats(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat is not None]

    @property
    def free_seats(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat is None]

    @property
    def full(self) -> bool:
        return len(self.seats) == self.seat_count and None not in self.seats

    def seat(self, index: int) -> SeatInfo:
        """A taken seat (every seat is, once the game has started)."""
        found = self.seats[index]
        if found is None:
            raise ValueError(f"seat {index} is free")
        return found

    @property
    def over(self) -> bool:
        return self.status in ("finished", "cancelled")

    @kept
    def stream(self) -> RandomStream | None:
        """The game's random stream, once every seat (and so every client seed) is known."""
        if self.seed is None or not self.full:
            return None
        client_seeds = [seat.client_seed for _, seat in self.taken]
        return RandomStream(bytes.fromhex(self.seed), self.game_id, client_seeds)


# The last event a state was evolved by, and the state it gave: a decision folds its events to
# see whether they end the game, and recording them folds the very same events again.
_LAST = "last_evolved"


def evolve(state: GameState | None, event: Event) -> GameState:
    if state is None:
        if not isinstance(event, GameCreated):
            raise ValueError("a game's first event must be GameCreated")
        return GameState(
            game_id=event.game_id,
            variant=event.variant,
            options=event.options,
            seat_count=event.seat_count,
            creator=event.creator,
            seed_commitment=event.seed_commitment,
            seed=event.seed.value,
            seats=(None,) * event.seat_count,
            matched_by=event.matched_by,
            rematch_of=event.rematch_of,
        )
    last: tuple[Event, GameState] | None = state.__dict__.get(_LAST)
    if last is not None and last[0] is event:
        return last[1]
    after = _after(state, event)
    state.__dict__[_LAST] = (event, after)
    return after


def _after(state: GameState, event: Event) -> GameState:
    replace = msgspec.structs.replace
    match event:
        case SeatTaken():
            seat = SeatInfo(
                player_id=event.player_id,
                name=event.name,
                client_seed=event.client_seed,
                bot=event.bot,
            )
            seats = list(state.seats)
            seats[event.seat] = seat
            return replace(state, seats=tuple(seats))
        case GameStarted():
            options = msgspec.convert(state.options, state.rules.options_type)
            return replace(
                state, status="active", table=state.rules.setup(options, state.seat_count)
            )
        case CancelVoted():
            return _replace_seat(state, event.seat, voted_cancel=True)
        case GameCancelled():
            return replace(
                state, status="cancelled", cancelled_by=event.by, revealed_seed=event.seed or None
            )
        case GameFinished():
            outcome = Outcome(scores=event.scores, winners=event.winners, reason=event.reason)
            return replace(state, status="finished", outcome=outcome, revealed_seed=event.seed)
        case PlayerLeft():
            state = _replace_seat(state, event.seat, left=True)
    return replace(state, table=state.rules.evolve(state.table, event))


def _replace_seat(state: GameState, index: int, **changes: Any) -> GameState:
    seats = list(state.seats)
    seats[index] = msgspec.structs.replace(state.seat(index), **changes)
    return msgspec.structs.replace(state, seats=tuple(seats))


def fold(state: GameState, events: Iterable[Event]) -> GameState:
    for event in events:
        state = evolve(state, event)
    return state
