"""Export bundles: a finished game's whole log in one self-contained JSON document."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final, Literal
from uuid import UUID

import msgspec

from domain.aggregate import Recorded
from domain.events import Secret, tag_of_type
from domain.variants import event_types
from projections.events import EventOut

FORMAT: Final = "cardledger-bundle/v1"


class Bundle(msgspec.Struct, frozen=True, kw_only=True):
    format: Literal["cardledger-bundle/v1"]  # FORMAT
    game_id: str
    variant: str
    events: list[EventOut]


class _StoredEvent(msgspec.Struct, frozen=True, kw_only=True):
    version: int
    timestamp: datetime
    actor: str
    command_id: str
    command: Secret[Any] | None
    type: str
    payload: msgspec.Raw
    prev_hash: str
    hash: str
    expiry: datetime | None = None


class _PayloadType(msgspec.Struct, frozen=True):
    type: str


class _StoredBundle(msgspec.Struct, frozen=True, kw_only=True):
    format: str
    game_id: str
    variant: str
    events: list[_StoredEvent]


class BundleError(ValueError):
    """The file is not a readable bundle."""


def read_bundle(data: bytes) -> tuple[str, list[Recorded]]:
    """The game id and the events of a bundle, decoded exactly as stored."""
    try:
        bundle = msgspec.json.decode(data, type=_StoredBundle)
    except msgspec.DecodeError as error:
        raise BundleError(f"not a cardledger bundle: {error}") from None
    if bundle.format != FORMAT:
        raise BundleError(f"unknown bundle format {bundle.format!r}")
    game_id = UUID(bundle.game_id)
    by_tag = {tag_of_type(kind): kind for kind in event_types().values()}
    events = []
    for event in bundle.events:
        try:
            # The hash covers the payload's own type, not the copy beside it: read that one.
            tag = msgspec.json.decode(event.payload, type=_PayloadType).type
            if tag != event.type:
                raise BundleError(f"event {event.version} is a {event.type!r}, its payload {tag!r}")
            kind = by_tag.get(tag)
            if kind is None:
                raise BundleError(f"event {event.version} has an unknown type {tag!r}")
            payload = msgspec.json.decode(event.payload, type=kind)
        except msgspec.DecodeError as error:
            raise BundleError(f"event {event.version} is malformed: {error}") from None
        events.append(
            Recorded(
                originator_id=game_id,
                originator_version=event.version,
                timestamp=event.timestamp,
                actor=event.actor,
                command_id=event.command_id,
                command=event.command,
                payload=payload,
                prev_hash=event.prev_hash,
                hash=event.hash,
                expiry=event.expiry,
            )
        )
    return str(game_id), events
