"""The hash chain and the one redaction rule."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

from domain.chain import GENESIS, PREFIX, event_hash, hashed_body
from domain.events import CardPlayed, HandDealt, Secret
from domain.perspective import FULL, PUBLIC, Perspective, redact

WHEN = datetime(2026, 11, 30, 12, 0, 0, 123456, tzinfo=UTC)


def digest(**overrides: object) -> str:
    fields: dict = {
        "game_id": "g",
        "version": 1,
        "timestamp": WHEN,
        "actor": "seat:0",
        "command_id": "c",
        "command": Secret(owner=0, value={"type": "play", "card": "QS"}, salt="ab" * 16),
        "payload": CardPlayed(seat=0, card="QS"),
        "expiry": None,
    }
    prev_hash = overrides.pop("prev_hash", GENESIS)
    fields.update(overrides)
    return event_hash(str(prev_hash), hashed_body(**fields))


BODY = {
    "actor": "seat:0",
    "command": {"owner": 0, "salt": "ab" * 16, "value": {"card": "QS", "type": "play"}},
    "command_id": "c",
    "game_id": "g",
    "payload": {"card": "QS", "seat": 0, "type": "CardPlayed"},
    "timestamp": "2026-11-30T12:00:00.123456Z",
    "version": 1,
}


def documented(body: dict[str, object]) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(PREFIX + GENESIS.encode() + b"\x00" + canonical).hexdigest()


def test_hash_follows_the_documented_construction() -> None:
    assert digest() == documented(BODY)


def test_an_expiry_mark_is_hashed_as_a_key_of_its_own() -> None:
    # Only an expiry's events carry the key; without it the body is as it always was (above).
    deadline = datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC)
    marked = {**BODY, "actor": "server", "command": None, "expiry": "2026-11-30T12:00:05Z"}
    assert digest(actor="server", command=None, expiry=deadline) == documented(marked)
    assert digest(expiry=deadline) != digest()


def test_every_field_is_covered() -> None:
    base = digest()
    assert digest(prev_hash="1" * 64) != base
    assert digest(game_id="h") != base
    assert digest(version=2) != base
    assert digest(timestamp=WHEN.replace(microsecond=0)) != base
    assert digest(actor="seat:1") != base
    assert digest(command_id="d") != base
    assert digest(command=None) != base
    assert (
        digest(command=Secret(owner=0, value={"type": "play", "card": "QH"}, salt="ab" * 16))
        != base
    )
    assert digest(payload=CardPlayed(seat=0, card="QH")) != base


def test_salt_blinds_a_secret_inside_the_hash() -> None:
    sealed = HandDealt(
        hand=1,
        dealer=0,
        hands=(Secret(owner=0, value=("QS",), salt="aa" * 16),),
        rest=Secret(owner=None),
    )
    resealed = HandDealt(
        hand=1,
        dealer=0,
        hands=(Secret(owner=0, value=("QS",), salt="bb" * 16),),
        rest=Secret(owner=None),
    )
    assert digest(payload=sealed) != digest(payload=resealed)


def dealt() -> HandDealt:
    return HandDealt(
        hand=1,
        dealer=0,
        hands=(
            Secret(owner=0, value=("2S", "3S"), salt="s0"),
            Secret(owner=1, value=("4S", "5S"), salt="s1"),
        ),
        rest=Secret(owner=None, value=("6S",), salt="s2"),
    )


def test_a_seat_sees_only_its_own_secrets() -> None:
    seen = redact(dealt(), Perspective(seat=1))
    assert seen.hands[0] == Secret(owner=0)
    assert seen.hands[1].value == ("4S", "5S")
    assert seen.rest == Secret(owner=None)


def test_spectators_see_no_secret_and_full_sees_all() -> None:
    public = redact(dealt(), PUBLIC)
    assert all(
        secret.value is None and secret.salt is None for secret in (*public.hands, public.rest)
    )
    assert redact(dealt(), FULL) == dealt()


def test_redaction_leaves_public_events_untouched() -> None:
    played = CardPlayed(seat=1, card="QS")
    assert redact(played, PUBLIC) is played
