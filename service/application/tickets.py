"""Stream tickets: short-lived, read-only, for one player and one game (or the player's own
stream of messages).

Browsers cannot send headers on EventSource, and bearer tokens never go in URLs; a ticket can, as
it only opens one stream for a minute. Format: base64url(player|game|expiry) "." HMAC, where a
ticket to the player's messages names ``messages`` instead of a game (no game id reads so).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from uuid import UUID

import msgspec
from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from domain.aggregate import project
from service.auth import Principal
from service.errors import INVALID_TICKET, PLAYERS_ONLY
from service.store.event_store import Store
from service.store.games import Games
from service.store.records import TICKET_KEY_ID, Record, TicketKey

TICKET_LIFETIME = timedelta(seconds=60)
MESSAGES = "messages"  # what a ticket to the player's own stream names in place of a game


class StreamTicket(msgspec.Struct, frozen=True, kw_only=True):
    ticket: str
    expires_at: datetime


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class TicketBook:
    """Issues and redeems tickets with a key every process shares through the store."""

    def __init__(self, store: Store, games: Games, clock: Callable[[], datetime]) -> None:
        self._store = store
        self._games = games
        self._clock = clock
        self._key: bytes | None = None

    def key(self) -> bytes:
        """The signing key, created by whichever process needs it first."""
        if self._key is None:
            record = self._load()
            if record is None:
                secret = TicketKey(secret=secrets.token_hex(32))
                with contextlib.suppress(IntegrityError):  # another process made it first
                    self._store.save(Record.new(TICKET_KEY_ID, secret, self._clock()))
                record = self._load()
            assert record is not None
            self._key = bytes.fromhex(record.payload.secret)
        return self._key

    def _load(self) -> Record | None:
        try:
            record = self._store.repository.get(TICKET_KEY_ID, projector_func=project)
        except AggregateNotFoundError:
            return None
        return record if isinstance(record, Record) else None

    def issue(self, principal: Principal, game_id: UUID) -> StreamTicket:
        """A ticket for the caller to follow this game (404 if there is no such game)."""
        self._games.cached(game_id)
        return issue(self.key(), principal.actor_id, str(game_id), self._clock())

    def holder(self, ticket: str, game_id: UUID) -> Principal:
        """Who a ticket for this game was issued to (401 if it is not a genuine, unexpired
        ticket for it)."""
        return Principal.of_actor(redeem(self.key(), ticket, str(game_id), self._clock()))

    def issue_for_messages(self, principal: Principal) -> StreamTicket:
        """A ticket for the caller to follow their own messages (the operator has none)."""
        if principal.player_id is None:
            raise PLAYERS_ONLY("the operator sits at no game and has no messages")
        return issue(self.key(), principal.actor_id, MESSAGES, self._clock())

    def messages_holder(self, ticket: str) -> Principal:
        """Who a ticket to their messages was issued to (401 if it is not a genuine, unexpired
        ticket to them: a game's ticket does not open them)."""
        return Principal.of_actor(redeem(self.key(), ticket, MESSAGES, self._clock()))


def issue(key: bytes, player_id: str, game_id: str, now: datetime) -> StreamTicket:
    expires = now + TICKET_LIFETIME
    body = f"{player_id}|{game_id}|{int(expires.timestamp())}".encode()
    mac = hmac.new(key, body, hashlib.sha256).digest()[:16]
    return StreamTicket(ticket=f"{_b64(body)}.{_b64(mac)}", expires_at=expires)


def redeem(key: bytes, ticket: str, game_id: str, now: datetime) -> str:
    """The player id a ticket was issued to, if it is genuine, unexpired and for this game."""
    refused = INVALID_TICKET("the stream ticket is invalid or has expired")
    try:
        body_text, mac_text = ticket.split(".")
        body, mac = _unb64(body_text), _unb64(mac_text)
        player_id, ticket_game, expires = body.decode().split("|")
    except (ValueError, UnicodeDecodeError):
        raise refused from None
    expected = hmac.new(key, body, hashlib.sha256).digest()[:16]
    if not hmac.compare_digest(mac, expected) or ticket_game != game_id:
        raise refused
    if now.timestamp() >= int(expires):
        raise refused
    return player_id
