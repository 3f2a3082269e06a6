"""Events: immutable, past-tense, tagged msgspec Structs with an explicit topic and schema version.

Visibility is data: any value that only one seat (or nobody, until the game ends) may see is held
in a ``Secret`` that names its owner. Redaction replaces what a viewer may not see; no event type
needs code of its own for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar, Generic, Literal, TypeVar

import msgspec

T = TypeVar("T")
CancelledBy = Literal["creator", "vote", "admin"]
Ending = Literal["complete", "forfeit"]  # how a game that was not cancelled ended

TOPIC_PREFIX = "cardledger"


class Secret(msgspec.Struct, Generic[T], frozen=True, kw_only=True):
    """A value only ``owner`` may see (``owner`` None: nobody until the game is over).

    ``salt`` is drawn from the game's random stream so the event hash, which covers the value,
    cannot be brute-forced to learn a low-entropy secret such as one card.
    """

    owner: int | None
    value: T | None = None
    salt: str | None = None

    @property
    def redacted(self) -> bool:
        return self.value is None

    def unwrap(self) -> T:
        if self.value is None:
            raise ValueError("secret value is redacted")
        return self.value


class Event(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """Base of every domain event. Subclasses declare an explicit ``tag=``: their stable name."""

    SCHEMA_VERSION: ClassVar[int] = 1


def tag_of(value: msgspec.Struct) -> str:
    """The wire name of a tagged event or command."""
    return str(value.__struct_config__.tag)


def tag_of_type(kind: type[msgspec.Struct]) -> str:
    """The wire name of a tagged event or command type."""
    return str(kind.__struct_config__.tag)


def topic(event_class: type[Event]) -> str:
    """The stored topic of an event class: its explicit tag and schema version."""
    return f"{TOPIC_PREFIX}:{event_class.__struct_config__.tag}:v{event_class.SCHEMA_VERSION}"


def secrets_in(value: object) -> Iterator[Secret[Any]]:
    """Every Secret inside an event, depth first."""
    if isinstance(value, Secret):
        yield value
    elif isinstance(value, msgspec.Struct):
        for field in value.__struct_fields__:
            yield from secrets_in(getattr(value, field))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from secrets_in(item)


# --- the lifecycle every variant shares -------------------------------------------------------


class GameCreated(Event, frozen=True, tag="GameCreated", omit_defaults=True):
    """A new game. ``matched_by`` (the matchmaking queue's stream that formed its table) and
    ``rematch_of`` (the ended game it is a rematch of) are absent for a game created by a
    player, as in every log written before them, so those events encode and hash as they
    always did."""

    game_id: str
    variant: str
    options: dict[str, Any]
    seat_count: int
    creator: str
    seed_commitment: str
    seed: Secret[str]
    matched_by: str | None = None
    rematch_of: str | None = None


class BotSeat(msgspec.Struct, frozen=True, kw_only=True):
    """A seat the house plays: its bot's level and the algorithm version it decides by. The
    bot's seed is not here: it follows from the game's seed (domain.fairness.bot_seed)."""

    level: int
    algorithm: int


class SeatTaken(Event, frozen=True, tag="SeatTaken", omit_defaults=True):
    """A seat taken by a player, or by a bot (``bot``; absent for a player, as in every log
    written before bots, so those events encode and hash as they always did)."""

    seat: int
    player_id: str
    name: str
    client_seed: str
    bot: BotSeat | None = None


class GameStarted(Event, frozen=True, tag="GameStarted"):
    seat_count: int


class HandDealt(Event, frozen=True, tag="HandDealt"):
    """Every hand of a deal, each visible to its seat, and the undealt rest (kitty, stock...)."""

    hand: int
    dealer: int
    hands: tuple[Secret[tuple[str, ...]], ...]
    rest: Secret[tuple[str, ...]]


class CardPlayed(Event, frozen=True, tag="CardPlayed"):
    seat: int
    card: str


class TrickWon(Event, frozen=True, tag="TrickWon"):
    trick: int
    seat: int
    cards: tuple[str, ...]
    points: int


class PlayerLeft(Event, frozen=True, tag="PlayerLeft"):
    seat: int


class CancelVoted(Event, frozen=True, tag="CancelVoted"):
    seat: int


class GameCancelled(Event, frozen=True, tag="GameCancelled"):
    by: CancelledBy
    seed: str


class GameFinished(Event, frozen=True, tag="GameFinished", omit_defaults=True):
    """The final result. ``reason`` is ``complete`` (the variant's own end; omitted from the
    stored form, as in logs written before reasons were recorded) or ``forfeit`` (fewer than
    two seats were left at the table)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    seed: str
    reason: Ending = "complete"


LIFECYCLE_EVENTS: tuple[type[Event], ...] = (
    GameCreated,
    SeatTaken,
    GameStarted,
    PlayerLeft,
    CancelVoted,
    GameCancelled,
    GameFinished,
)
