"""Who is calling: the bearer token read into ``request.user`` (a ``Principal``, or None without
a token) before the route runs, and a route that needs a token (its declaration's ``SIGNED_IN``)
refused when none came.

Not a guard: litestar 2.25 copies the route handler for every guard it runs, which cost a
request about 100 µs. Nor a middleware layer of its own: the envelope (service/http/envelope.py)
signs the caller in, within the request's store budget. A token already seen by this process is
known without a thread hop; a new one is looked up in the store off the event loop. A token that
names nobody is refused (401) on every route that reads the caller; routes that never do
(declared ``Token.NONE``) and CORS preflights skip it.
"""

from __future__ import annotations

from litestar.types import Scope

from service.application.players import Players
from service.auth import Principal, bearer_token
from service.errors import UNAUTHORIZED
from service.http.headers import raw_header
from service.threads import on_thread

SKIP = "exclude_from_auth"  # the opt key of routes that never read the caller
SIGNED_IN = "signed_in"  # the opt key of routes that need a token
AUTHORIZATION = b"authorization"


class TokenAuthentication:
    def __init__(self, players: Players) -> None:
        self.players = players

    async def sign_in(self, scope: Scope) -> None:
        """Sets the caller on a routed HTTP request's scope, where ``request.user`` reads it."""
        opt = scope["route_handler"].opt
        if scope.get("method") == "OPTIONS" or opt.get(SKIP):
            return
        scope["user"] = await self._caller(raw_header(scope, AUTHORIZATION), opt)
        scope["auth"] = None

    async def _caller(
        self, authorization: bytes | None, opt: dict[str, object]
    ) -> Principal | None:
        """Who the bearer token names; None without one where the route allows it."""
        token = bearer_token(authorization.decode("latin-1") if authorization else None)
        if token is None:
            if opt.get(SIGNED_IN):
                raise UNAUTHORIZED("a valid bearer token is required")
            return None
        principal = self.players.remembered(token)
        if principal is None:
            principal = await on_thread(self.players.authenticate, token)
        return principal
