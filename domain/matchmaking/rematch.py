"""A rematch of an ended game as its own stream of events: offered by a seated person, accepted
or declined by each other one, and made (the new game's id) once every person said yes.

The ended game is never written to again (its end, with its final chain head, is in the
witnessed log). Its rematch is one aggregate (id ``uuid5(namespace, "rematch:" + game id)``),
and ``RematchMade`` is saved in the same transaction as the new game: two processes that both
see the last yes write the same next version of this stream, the store lets one through, and
the other decides again, finds the rematch made and creates nothing (docs/matchmaking.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, ClassVar
from uuid import UUID, uuid5

import msgspec

from domain.errors import Failure, RuleViolation, forbidden
from domain.game import MAX_CLIENT_SEED
from domain.game_state import GameState
from domain.matchmaking.enveloped import EnvelopedAggregate

REMATCH_NAMESPACE = UUID("5b0e9c1a-7d3f-4e62-8a15-c94f2d7e6b30")
TOPIC_PREFIX = "cardledger:rematch"

ANSWER_REFUSALS: Mapping[str, Failure] = {
    "game_not_finished": Failure.CONFLICT,
    "not_seated": Failure.FORBIDDEN,
    "already_offered": Failure.CONFLICT,
    "already_accepted": Failure.CONFLICT,
    "rematch_declined": Failure.CONFLICT,
    "rematch_made": Failure.CONFLICT,
    "invalid_client_seed": Failure.INVALID,
}
DECLINE_REFUSALS: Mapping[str, Failure] = {
    "not_seated": Failure.FORBIDDEN,
    "no_rematch_offer": Failure.NOT_FOUND,
    "rematch_declined": Failure.CONFLICT,
    "rematch_made": Failure.CONFLICT,
}
REFUSALS: Mapping[str, Failure] = {**ANSWER_REFUSALS, **DECLINE_REFUSALS}


def rematch_id(game_id: str) -> UUID:
    """The stream of an ended game's rematch: the same in every process, for ever."""
    return uuid5(REMATCH_NAMESPACE, f"rematch:{game_id}")


class RematchEvent(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """Base of a rematch's events; each subclass has an explicit, stable ``tag``."""

    SCHEMA_VERSION: ClassVar[int] = 1


class RematchOffered(RematchEvent, frozen=True, tag="RematchOffered"):
    """A seated person offers a rematch of ``game_id`` (and so accepts it), with their seed
    for its deal."""

    game_id: str
    player_id: str
    name: str
    client_seed: str = ""


class RematchAccepted(RematchEvent, frozen=True, tag="RematchAccepted"):
    player_id: str
    client_seed: str = ""


class RematchDeclined(RematchEvent, frozen=True, tag="RematchDeclined"):
    """A seated person declined the offer (the offerer: withdrew it); the rematch is off."""

    player_id: str


class RematchMade(RematchEvent, frozen=True, tag="RematchMade"):
    """Everyone said yes: the new game, saved in the same transaction."""

    game_id: str


REMATCH_EVENTS: tuple[type[RematchEvent], ...] = (
    RematchOffered,
    RematchAccepted,
    RematchDeclined,
    RematchMade,
)


def rematch_topic(kind: type[RematchEvent]) -> str:
    return f"{TOPIC_PREFIX}:{kind.__struct_config__.tag}:v{kind.SCHEMA_VERSION}"


class RematchState(msgspec.Struct, kw_only=True):
    """What a rematch's events add up to: who offered, each yes with its client seed, who
    declined, and the new game once made."""

    game_id: str
    offered_by: str | None = None
    accepted: dict[str, str] = msgspec.field(default_factory=dict)
    declined_by: str | None = None
    new_game_id: str | None = None

    def apply(self, event: RematchEvent) -> None:
        if isinstance(event, RematchOffered):
            self.offered_by = event.player_id
            self.accepted[event.player_id] = event.client_seed
        elif isinstance(event, RematchAccepted):
            self.accepted[event.player_id] = event.client_seed
        elif isinstance(event, RematchDeclined):
            self.declined_by = event.player_id
        elif isinstance(event, RematchMade):
            self.new_game_id = event.game_id


def persons(game: GameState) -> list[str]:
    """The people (not bots) seated at the game, in seat order, leavers too."""
    return [seat.player_id for _, seat in game.taken if seat.bot is None]


def _check_open(state: RematchState, game: GameState, player_id: str) -> None:
    if player_id not in persons(game):
        raise forbidden("not_seated", "only a person seated at the game may answer its rematch")
    if state.new_game_id is not None:
        raise RuleViolation("rematch_made", f"the rematch is game {state.new_game_id}")
    if state.declined_by is not None:
        raise RuleViolation("rematch_declined", "the rematch was declined")


def say_yes(
    state: RematchState, game: GameState, *, player_id: str, name: str, client_seed: str
) -> RematchEvent:
    """An offer if there is none yet, else an acceptance; or a coded refusal. Only a finished
    game has a rematch: a cancelled one is void (its players start a new game instead)."""
    if game.status != "finished":
        raise RuleViolation("game_not_finished", "a rematch follows a game that has finished")
    _check_open(state, game, player_id)
    if len(client_seed) > MAX_CLIENT_SEED:
        raise RuleViolation(
            "invalid_client_seed",
            f"client_seed is longer than {MAX_CLIENT_SEED}",
            Failure.INVALID,
        )
    if state.offered_by is None:
        return RematchOffered(
            game_id=game.game_id, player_id=player_id, name=name, client_seed=client_seed
        )
    if state.offered_by == player_id:
        raise RuleViolation("already_offered", "you offered this rematch")
    if player_id in state.accepted:
        raise RuleViolation("already_accepted", "you already accepted this rematch")
    return RematchAccepted(player_id=player_id, client_seed=client_seed)


def say_no(state: RematchState, game: GameState, *, player_id: str) -> RematchDeclined:
    """Decline the offer (or, for the offerer, withdraw it)."""
    _check_open(state, game, player_id)
    if state.offered_by is None:
        raise RuleViolation(
            "no_rematch_offer", "nobody offered a rematch of this game", Failure.NOT_FOUND
        )
    return RematchDeclined(player_id=player_id)


def agreed(state: RematchState, game: GameState) -> bool:
    """Whether every person seated said yes and the game is not made yet."""
    if state.new_game_id is not None or state.declined_by is not None:
        return False
    return all(player in state.accepted for player in persons(game))


def rotated(seat: int, seat_count: int) -> int:
    """Where the occupant of ``seat`` sits in the rematch: one seat on."""
    return (seat + 1) % seat_count


class Rematched(msgspec.Struct, frozen=True, kw_only=True):
    """A stored rematch event: the payload, its place in the stream and when it happened."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    payload: RematchEvent

    @property
    def command_id(self) -> str:
        """Each rematch event is its own run in the log (the read models read them with the
        games' events)."""
        return f"rematch:{self.originator_version}"

    def mutate(self, aggregate: RematchAggregate | None) -> RematchAggregate:
        if aggregate is None:
            raise ValueError("a rematch is opened before its events are folded")
        aggregate.state.apply(self.payload)
        aggregate.version = self.originator_version
        aggregate.modified_on = self.timestamp
        return aggregate


class RematchAggregate(EnvelopedAggregate):
    """An ended game's rematch. Opened empty at version 0 (its offer is its first event), so
    two offers racing conflict like any other two writes."""

    ENVELOPE = Rematched
    TOPIC = "cardledger:rematch"
    state: RematchState

    @staticmethod
    def opened(game_id: str, events: Any, now: datetime) -> RematchAggregate:
        """The rematch of ``game_id`` with its stored ``events`` folded."""
        aggregate = RematchAggregate.__new__(RematchAggregate)
        aggregate.__base_init__(
            originator_id=rematch_id(game_id), originator_version=0, timestamp=now
        )
        aggregate.state = RematchState(game_id=game_id)
        for event in events:
            event.mutate(aggregate)
        return aggregate
