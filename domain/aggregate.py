"""The event-sourced game: a thin eventsourcing aggregate around the pure rules in domain.game.

Each stored event is a ``Recorded`` envelope: the domain event plus who caused it, the command
that did, and its link in the game's hash chain.
"""

from __future__ import annotations

import threading
import types
from datetime import datetime
from typing import Any, ClassVar, TypeVar
from uuid import UUID

import msgspec
from eventsourcing.domain import BaseAggregate

from domain import game, game_state
from domain.chain import GENESIS, event_hash, hashed_body
from domain.commands import Command
from domain.deadlines import Expiry
from domain.events import BotSeat, CancelledBy, Event, GameCreated, SeatTaken, Secret
from domain.game_state import GameState
from domain.variant import Variant
from domain.variants import VARIANTS


class ChainBroken(Exception):
    """A stored event does not link to the one before it."""


class Recorded(msgspec.Struct, frozen=True, kw_only=True):
    originator_id: UUID
    originator_version: int
    timestamp: datetime
    actor: str  # "seat:N", "server" or "admin"
    command_id: str
    command: Secret[Any] | None  # the seat's command, on the first of its own events
    payload: Event
    prev_hash: str
    hash: str
    expiry: datetime | None = None  # the deadline whose expiry made this event

    def mutate(self, aggregate: GameAggregate | None) -> GameAggregate:
        if aggregate is None:
            if not isinstance(self.payload, GameCreated):
                raise ChainBroken("a game's first event must be GameCreated")
            cls = game_class(self.payload.variant)
            aggregate = cls.__new__(cls)
            aggregate.__base_init__(
                originator_id=self.originator_id,
                originator_version=self.originator_version,
                timestamp=self.timestamp,
            )
            aggregate.state = game_state.evolve(None, self.payload)
            aggregate.chain_head = self.hash
            return aggregate
        if (
            self.originator_version != aggregate.version + 1
            or self.prev_hash != aggregate.chain_head
        ):
            raise ChainBroken(
                f"event {self.originator_version} does not follow {aggregate.version}"
            )
        aggregate.state = game_state.evolve(aggregate.state, self.payload)
        aggregate.version = self.originator_version
        aggregate.modified_on = self.timestamp
        aggregate.chain_head = self.hash
        return aggregate


def project(aggregate: GameAggregate | None, events: Any) -> GameAggregate | None:
    """Projector for the repository: folds Recorded envelopes (no per-event protocol check)."""
    for recorded in events:
        aggregate = recorded.mutate(aggregate)
    return aggregate


Forked = TypeVar("Forked", bound=BaseAggregate[UUID])


def forked(aggregate: Forked) -> Forked:
    """A copy of ``aggregate`` without its pending events, its fields shared as they are: the
    caller copies what a decision would change. (``copy.deepcopy`` through ``copy.copy`` took
    ~8x as long, by ``__reduce_ex__`` and the deepcopy machinery.)"""
    clone = object.__new__(type(aggregate))
    clone.__dict__.update(aggregate.__dict__)
    clone._pending_events = []
    return clone


class GameAggregate(BaseAggregate[UUID]):
    """One game. Subclassed once per variant with an explicit topic (``game_class``)."""

    variant_id: ClassVar[str]
    state: GameState
    chain_head: str

    def fork(self) -> GameAggregate:
        """A copy to decide on: the state is immutable, so sharing it is safe and cheap."""
        return forked(self)

    @staticmethod
    def open(
        game_id: UUID, events: list[Event], *, actor: str, command_id: str, now: datetime
    ) -> GameAggregate:
        """A new game from its creation events (GameCreated first)."""
        cause = Cause(actor=actor, command_id=command_id, now=now)
        first = _envelope(game_id, str(game_id), 1, GENESIS, events[0], cause)
        aggregate = first.mutate(None)
        aggregate.pending_events.append(first)  # type: ignore[arg-type]
        aggregate.record(events[1:], msgspec.structs.replace(cause, command=None))
        return aggregate

    def record(self, events: list[Event], cause: Cause) -> list[Recorded]:
        """Append events; the command that caused them rides on the first one only."""
        recorded = []
        for payload in events:
            envelope = _envelope(
                self.id, self.state.game_id, self.version + 1, self.chain_head, payload, cause
            )
            envelope.mutate(self)
            self.pending_events.append(envelope)  # type: ignore[arg-type]
            recorded.append(envelope)
            cause = msgspec.structs.replace(cause, command=None)
        return recorded

    def join(
        self, *, player_id: str, name: str, client_seed: str, command_id: str, now: datetime
    ) -> list[Recorded]:
        events = game.join(
            self.state,
            player_id=player_id,
            name=name,
            client_seed=client_seed,
            now=now,
            version=self.version,
        )
        taken = events[0]
        assert isinstance(taken, SeatTaken)
        actor = f"seat:{taken.seat}"
        return self.record(events, Cause(actor=actor, command_id=command_id, now=now))

    def add_bot(
        self,
        *,
        player_id: str | None,
        seat: int | None,
        bot: BotSeat,
        command_id: str,
        now: datetime,
    ) -> list[Recorded]:
        """The creator seats a bot (recorded as the creator's act)."""
        events = game.add_bot(
            self.state, player_id=player_id, seat=seat, bot=bot, now=now, version=self.version
        )
        actor = game.creator_actor(self.state)
        return self.record(events, Cause(actor=actor, command_id=command_id, now=now))

    def act(
        self, *, player_id: str, command: Command, command_id: str, now: datetime
    ) -> list[Recorded]:
        """A seat's command, after any expiry due first (each event of an expiry marked with its
        deadline). The command itself is kept, sealed for its seat, on the first of its own
        events, so an auditor can re-run the decision once the game is over."""
        expired, events = game.act_late(
            self.state, player_id=player_id, command=command, now=now, version=self.version
        )
        seat = self.state.seat_of(player_id)
        assert seat is not None
        actor = f"seat:{seat}"
        recorded = self._record_expiries(expired, actor=actor, command_id=command_id, now=now)
        sealed = sealed_command(self.state, seat, msgspec.to_builtins(command), self.version)
        cause = Cause(actor=actor, command_id=command_id, now=now, command=sealed)
        return recorded + self.record(events, cause)

    def cancel(
        self, *, by: CancelledBy, player_id: str | None, command_id: str, now: datetime
    ) -> list[Recorded]:
        events = game.cancel(self.state, by=by, player_id=player_id)
        actor = "admin" if by == "admin" else game.creator_actor(self.state)
        return self.record(events, Cause(actor=actor, command_id=command_id, now=now))

    def expire(self, *, command_id: str, now: datetime) -> list[Recorded]:
        expired = game.expiries(self.state, now=now, version=self.version)
        return self._record_expiries(expired, actor="server", command_id=command_id, now=now)

    def _record_expiries(
        self, expired: list[Expiry], *, actor: str, command_id: str, now: datetime
    ) -> list[Recorded]:
        recorded = []
        for expiry in expired:
            cause = Cause(actor=actor, command_id=command_id, now=now, expiry=expiry.deadline)
            recorded += self.record(expiry.events, cause)
        return recorded


class Cause(msgspec.Struct, frozen=True, kw_only=True):
    """Who caused a batch of events, with which command, and when."""

    actor: str
    command_id: str
    now: datetime
    command: Secret[Any] | None = None
    expiry: datetime | None = None


def _envelope(
    game_id: UUID, game_text: str, version: int, prev_hash: str, payload: Event, cause: Cause
) -> Recorded:
    """``game_text``: the game's id as text, as its state holds it (``str`` of a UUID per event
    cost more than the rest of the envelope's fields)."""
    body = hashed_body(
        game_id=game_text,
        version=version,
        timestamp=cause.now,
        actor=cause.actor,
        command_id=cause.command_id,
        command=cause.command,
        payload=payload,
        expiry=cause.expiry,
    )
    return Recorded(
        originator_id=game_id,
        originator_version=version,
        timestamp=cause.now,
        actor=cause.actor,
        command_id=cause.command_id,
        command=cause.command,
        payload=payload,
        prev_hash=prev_hash,
        hash=event_hash(prev_hash, body),
        expiry=cause.expiry,
    )


def sealed_command(state: GameState, seat: int, command: object, version: int) -> Secret[Any]:
    """A seat's command as recorded: sealed for the seat, salted by ``command/<version>``, the
    version its own events were decided at (docs/fairness.md §5)."""
    rng = state.stream
    if rng is None:
        raise RuntimeError("a command is only sealed once every seat is taken")
    return Secret(owner=seat, value=command, salt=rng.salt(f"command/{version}"))


_CLASSES: dict[str, type[GameAggregate]] = {}
_MAKING = threading.Lock()


def game_class(variant_id: str) -> type[GameAggregate]:
    """The aggregate class of a registered variant's games, made once per process. Its topic,
    ``cardledger:<variant id>:game``, is the one every game of the variant has been stored
    under: it may never change. Made under a lock: requests loading a variant's first games
    together would each make one, and the library refuses a second class for a topic."""
    made = _CLASSES.get(variant_id)
    if made is None:
        with _MAKING:
            made = _CLASSES.get(variant_id)
            if made is None:
                made = _CLASSES[variant_id] = _new_class(VARIANTS[variant_id])
    return made


def _new_class(variant: Variant[Any, Any]) -> type[GameAggregate]:
    def body(namespace: dict[str, Any]) -> None:
        namespace.update(
            __module__=__name__, TOPIC=f"cardledger:{variant.id}:game", variant_id=variant.id
        )

    name = "".join(part.capitalize() for part in variant.id.split("-")) + "Game"
    return types.new_class(name, (GameAggregate,), exec_body=body)
