"""Players: registration and bearer-token authentication."""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable
from datetime import datetime

from eventsourcing.application import AggregateNotFoundError

from domain.aggregate import project
from service.application.results import RegisteredPlayer
from service.auth import ADMIN, Principal, is_admin_token, new_token, token_hash
from service.errors import INVALID_NAME, UNAUTHORIZED
from service.store.event_store import Store
from service.store.records import PlayerRegistered, Record, player_id_for

MAX_NAME = 64
REMEMBERED = 10_000  # authenticated players kept in memory


def clean_name(name: str) -> str:
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME or any(
        unicodedata.category(ch).startswith("C") for ch in name
    ):
        raise INVALID_NAME(f"a name is 1 to {MAX_NAME} printable characters")
    return name


class Players:
    def __init__(
        self, store: Store, clock: Callable[[], datetime], admin_token: str | None
    ) -> None:
        self._store = store
        self._clock = clock
        self._admin_token = admin_token
        self._known: dict[str, Principal] = {}
        self._lock = threading.Lock()

    def register(self, name: str) -> RegisteredPlayer:
        name = clean_name(name)
        token = new_token()
        digest = token_hash(token)
        player_id = player_id_for(digest)
        record = Record.new(
            player_id, PlayerRegistered(name=name, token_hash=digest), self._clock()
        )
        self._store.save(record)
        return RegisteredPlayer(player_id=str(player_id), name=name, token=token)

    def remembered(self, token: str) -> Principal | None:
        """Who the token names, if that is known without asking the store."""
        if is_admin_token(token, self._admin_token):
            return ADMIN
        return self._known.get(token_hash(token))

    def authenticate(self, token: str) -> Principal:
        """Who the token names (asking the store once per player); 401 if nobody."""
        known = self.remembered(token)
        if known is not None:
            return known
        digest = token_hash(token)
        try:
            record = self._store.repository.get(player_id_for(digest), projector_func=project)
        except AggregateNotFoundError:
            raise UNAUTHORIZED("unknown or revoked token") from None
        if not isinstance(record, Record) or not isinstance(record.payload, PlayerRegistered):
            raise UNAUTHORIZED("unknown or revoked token")
        principal = Principal(player_id=str(record.id), name=record.payload.name)
        with self._lock:
            if len(self._known) >= REMEMBERED:
                self._known.clear()  # players never change: forgetting them costs one lookup
            self._known[digest] = principal
        return principal
