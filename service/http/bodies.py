"""Request bodies and their decoding (malformed JSON is 400, a body of the wrong shape 422),
and the query values the service checks itself."""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

import msgspec

from bots.levels import available_levels
from domain.commands import COMMON_COMMANDS
from domain.events import tag_of_type
from domain.variants import VARIANTS
from service.errors import INVALID_BODY, INVALID_STATUS, MALFORMED_JSON

T = TypeVar("T")
GAME_STATUSES = ("waiting", "active", "finished", "cancelled")
MAX_PAGE = 500
MAX_SEATS = max(variant.max_seats for variant in VARIANTS.values())


class CreatePlayer(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str


class WebhookTarget(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    url: str  # where the player's messages are POSTed (application/messaging/webhook_targets.py)


class AddBot(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A bot of ``level`` (``GET /variants`` lists each variant's levels) at ``seat``, or at
    the lowest free seat when ``seat`` is left out."""

    level: int
    seat: int | None = None


class CreateGame(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    variant: str
    seats: int
    options: dict[str, Any] | None = None
    client_seed: str = ""
    bots: Annotated[tuple[AddBot, ...], msgspec.Meta(max_length=MAX_SEATS)] = ()
    """Bots seated at creation: those with a seat first, then the others at the lowest free
    seats. The creator takes seat 0 unless a bot is placed there (then the creator does not
    sit: a table of bots alone plays by itself)."""


class JoinGame(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    client_seed: str = ""


class QueueBots(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """After ``after`` seconds in the queue, the free seats may go to bots of ``level``."""

    after: float
    level: int


class JoinQueue(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Wait for a table of ``variant``: ``min_seats`` to ``max_seats`` players (each left out:
    the variant's own bound), with these ``options`` (left out: the defaults).
    ``rating_band``: the widest rating gap you accept at the table (left out: any). ``bots``:
    after a wait, fill the free seats with bots (left out: players only)."""

    variant: str
    min_seats: int | None = None
    max_seats: int | None = None
    options: dict[str, Any] | None = None
    rating_band: float | None = None
    bots: QueueBots | None = None
    client_seed: str = ""


class VariantInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A variant the service hosts: ``name`` in English, ``native_name`` as the game calls
    itself (心跳 for Heartbeat), ``rules_url`` its rules page on this service."""

    id: str
    name: str
    native_name: str
    rules_url: str
    min_players: int
    max_players: int
    commands: list[str]
    options: dict[str, Any]
    options_schema: dict[str, Any]
    bot_levels: list[int]
    """The levels of bots that can take a seat (``bots`` in ``POST /games``)."""


class Health(msgspec.Struct, frozen=True):
    status: str


def decode_json(body: bytes) -> Any:
    """The body's JSON as plain values (None for an empty body)."""
    try:
        return msgspec.json.decode(body) if body else None
    except msgspec.DecodeError as error:
        raise MALFORMED_JSON(f"the body is not valid JSON: {error}") from None
    except RecursionError:
        raise MALFORMED_JSON("the body's JSON is nested too deeply") from None


def convert(data: object, kind: type[T]) -> T:
    """Decoded JSON as the body it must be."""
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as error:
        raise INVALID_BODY(f"the body does not fit {kind.__name__}: {error}") from None


def checked_status(status: str | None) -> str | None:
    if status is not None and status not in GAME_STATUSES:
        raise INVALID_STATUS(f"status is one of {', '.join(GAME_STATUSES)}")
    return status


def variant_catalog() -> list[VariantInfo]:
    """Every variant with its player counts, commands and options with their defaults."""
    return [
        VariantInfo(
            id=variant.id,
            name=variant.name,
            native_name=variant.native_name,
            rules_url=variant.rules_url,
            min_players=variant.min_seats,
            max_players=variant.max_seats,
            commands=sorted(tag_of_type(c) for c in (*COMMON_COMMANDS, *variant.commands)),
            options=msgspec.to_builtins(variant.options_type()),
            options_schema=msgspec.json.schema(variant.options_type),
            bot_levels=list(available_levels(variant.id)),
        )
        for variant in VARIANTS.values()
    ]
