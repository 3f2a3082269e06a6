"""Bearer tokens: 256-bit, shown once, stored only as SHA-256; the admin token from settings."""

from __future__ import annotations

import hashlib
import hmac
import secrets

import msgspec


class Principal(msgspec.Struct, frozen=True, kw_only=True):
    """Who is calling: a registered player, or the operator (admin)."""

    player_id: str | None
    name: str
    admin: bool = False

    @property
    def actor_id(self) -> str:
        """Who acts, as receipts, tickets and limits key it: the player's id, or ``admin``."""
        return self.player_id or ADMIN_ACTOR

    @staticmethod
    def of_actor(actor_id: str) -> Principal:
        """The principal an ``actor_id`` names (the player's name is not kept with it)."""
        return ADMIN if actor_id == ADMIN_ACTOR else Principal(player_id=actor_id, name="")


ADMIN_ACTOR = "admin"
ADMIN = Principal(player_id=None, name=ADMIN_ACTOR, admin=True)


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def is_admin_token(token: str, admin_token: str | None) -> bool:
    return admin_token is not None and same_secret(token, admin_token)


def same_secret(given: str, secret: str) -> bool:
    """In constant time: how long it takes tells nothing of how much of it was right."""
    return hmac.compare_digest(given.encode(), secret.encode())


def bearer_token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()
