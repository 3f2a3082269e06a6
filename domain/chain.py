"""The hash chain over a game's events (tamper evidence). See docs/fairness.md for the spec."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

import msgspec

from domain.events import Event, Secret

GENESIS = "0" * 64
PREFIX = b"cardledger/event/v1\x00"


def canonical(value: object) -> bytes:
    """Compact JSON with object keys sorted: the bytes that are hashed."""
    return msgspec.json.encode(value, order="sorted")


def event_hash(
    *,
    prev_hash: str,
    game_id: str,
    version: int,
    timestamp: datetime,
    actor: str,
    command_id: str,
    command: Secret[Any] | None,
    payload: Event,
) -> str:
    body = {
        "actor": actor,
        "command": command,
        "command_id": command_id,
        "game_id": game_id,
        "payload": payload,
        "timestamp": timestamp,
        "version": version,
    }
    return hashlib.sha256(
        PREFIX + prev_hash.encode("ascii") + b"\x00" + canonical(body)
    ).hexdigest()
