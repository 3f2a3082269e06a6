"""Who is calling: litestar's authentication middleware reads the bearer token into
``request.user`` (a ``Principal``, or None without a token), and refuses a route that needs a
token when none came (its declaration's ``SIGNED_IN``).

Not a guard: litestar 2.25 copies the route handler for every guard it runs, which cost a
request about 100 µs. A token already seen by this process is known without a thread hop; a new
one is looked up in the store off the event loop. A token that names nobody is refused (401)
on every route that reads the caller; routes that never do (declared ``Token.NONE``) skip the
middleware.
"""

from __future__ import annotations

from typing import Any

from litestar.concurrency import sync_to_thread
from litestar.connection import ASGIConnection
from litestar.middleware import AbstractAuthenticationMiddleware, AuthenticationResult
from litestar.types import ASGIApp

from service.application.players import Players
from service.auth import bearer_token
from service.errors import UNAUTHORIZED

SKIP = "exclude_from_auth"  # the opt key of routes that never read the caller
SIGNED_IN = "signed_in"  # the opt key of routes that need a token


class TokenAuthentication(AbstractAuthenticationMiddleware):
    def __init__(self, app: ASGIApp, players: Players) -> None:
        super().__init__(app, exclude_from_auth_key=SKIP)
        self.players = players

    async def authenticate_request(
        self, connection: ASGIConnection[Any, Any, Any, Any]
    ) -> AuthenticationResult:
        token = bearer_token(connection.headers.get("Authorization"))
        if token is None:
            if connection.route_handler.opt.get(SIGNED_IN):
                raise UNAUTHORIZED("a valid bearer token is required")
            return AuthenticationResult(user=None, auth=None)
        principal = self.players.remembered(token)
        if principal is None:
            principal = await sync_to_thread(self.players.authenticate, token)
        return AuthenticationResult(user=principal, auth=None)
