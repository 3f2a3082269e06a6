"""The hash chain over a game's events (tamper evidence). See docs/fairness.md for the spec."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

import msgspec

from domain.events import Event, Secret

GENESIS = "0" * 64
PREFIX = b"cardledger/event/v1\x00"
_CANONICAL = msgspec.json.Encoder(order="sorted")


def canonical(value: object) -> bytes:
    """Compact JSON with object keys sorted: the bytes that are hashed."""
    return _CANONICAL.encode(value)


def event_hash(prev_hash: str, body: dict[str, object]) -> str:
    """An event's link in the chain: the previous hash and the event's ``hashed_body``."""
    return hashlib.sha256(
        PREFIX + prev_hash.encode("ascii") + b"\x00" + canonical(body)
    ).hexdigest()


def hashed_body(
    *,
    game_id: str,
    version: int,
    timestamp: datetime,
    actor: str,
    command_id: str,
    command: Secret[Any] | None,
    payload: Event,
    expiry: datetime | None,
) -> dict[str, object]:
    """Everything an event's hash covers besides the previous hash."""
    body: dict[str, object] = {
        "actor": actor,
        "command": command,
        "command_id": command_id,
        "game_id": game_id,
        "payload": payload,
        "timestamp": timestamp,
        "version": version,
    }
    if expiry is not None:  # absent, not null, so events written before the marker hash as then
        body["expiry"] = expiry
    return body
