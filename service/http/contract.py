"""What each route promises its clients, declared beside it: who may call it, what its answers
carry (validators, paging links), and the problems it can answer with.

A route spreads ``declare(...)`` into its decorator: its security goes to litestar's own
``security=``, the rest to its ``opt``, from which the OpenAPI document lists the operation's
problem answers (``service/http/openapi/responses.py``, which adds what follows from the
route's shape: parameters that may fail to parse, a path that matches no route, the rate
limits). Who may call is enforced from the same declaration by the sign-in
(service/http/authentication.py): it refuses a route that needs a token when none came, and a
route that never reads the caller skips it. Tests hold the declarations to the handlers'
signatures and to every refusal a handler can reach.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Any

import msgspec

from domain.errors import Failure
from service.errors import (
    INVALID_TICKET,
    MALFORMED_JSON,
    STORE_UNAVAILABLE,
    UNAUTHORIZED,
    Refusal,
)
from service.http.authentication import SIGNED_IN, SKIP

CONTRACT = "contract"  # the key of a route's declaration in its ``opt``
BEARER = "bearer"
TICKET = "streamTicket"
METRICS_TOKEN = "metricsToken"
FAILURE_STATUS = {
    Failure.INVALID: 422,
    Failure.CONFLICT: 409,
    Failure.FORBIDDEN: 403,
    Failure.NOT_FOUND: 404,
}
# What the framework itself answers with, by status: problems.py gives each a code.
HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
}
OTHER_HTTP_CODE = "http_error"
INTERNAL_ERROR = "internal_error"
BODY_TOO_LARGE = Refusal(413, HTTP_CODES[413])
RATE_LIMITED = Refusal(429, HTTP_CODES[429])
NO_ROUTE = Refusal(404, HTTP_CODES[404])


class Token(StrEnum):
    REQUIRED = "required"  # a token, or 401 (the sign-in, service/http/authentication.py)
    OPTIONAL = "optional"  # the answer is the token holder's, if one came
    NONE = "none"  # the route never reads the caller


class Contract(msgspec.Struct, frozen=True, kw_only=True):
    token: Token
    ticket: bool = False  # a stream ticket may stand in for the token
    refusals: frozenset[Refusal] = frozenset()
    cached: bool = False  # carries an ETag, answers 304 to If-None-Match
    paged: bool = False  # carries Link rel="next" while a next page exists
    credential: str | None = None  # a scheme of its own the handler checks: not a player's

    def problems(self) -> dict[int, set[str]]:
        """The problem codes by status."""
        found: dict[int, set[str]] = {}
        for refusal in self.refusals:
            found.setdefault(refusal.status, set()).add(refusal.code)
        return found


def rule_refusals(codes: Iterable[tuple[str, Failure]]) -> set[Refusal]:
    """The rules' refusals (a code and its kind of failure) as the service answers them."""
    return {Refusal(FAILURE_STATUS[failure], code) for code, failure in codes}


def declare(
    token: Token,
    *refusals: Iterable[Refusal] | Refusal,
    ticket: bool = False,
    cached: bool = False,
    paged: bool = False,
    body: bool = False,
    store: bool = True,
    credential: str | None = None,
) -> dict[str, Any]:
    """The decorator arguments of a route: its security and its declared contract. ``body``:
    the handler reads a JSON body (which may be malformed or too large); ``store``: it asks
    the store (which may be unavailable); ``credential``: the security scheme of a secret the
    handler checks itself, which the operator may or may not have set."""
    found: set[Refusal] = set()
    for item in refusals:
        found |= {item} if isinstance(item, Refusal) else set(item)
    if token is not Token.NONE:
        found.add(UNAUTHORIZED)  # a token that names nobody is refused even where optional
    if ticket:
        found.add(INVALID_TICKET)
    if body:
        found |= {MALFORMED_JSON, BODY_TOO_LARGE}
    if store:
        found.add(STORE_UNAVAILABLE)
    contract = Contract(
        token=token,
        ticket=ticket,
        refusals=frozenset(found),
        cached=cached,
        paged=paged,
        credential=credential,
    )
    declared: dict[str, Any] = {"security": security(contract), "opt": {CONTRACT: contract}}
    if token is Token.REQUIRED and not ticket:  # else the handler checks: a ticket may come
        declared["opt"][SIGNED_IN] = True
    if token is Token.NONE and not ticket:
        declared["opt"][SKIP] = True  # the caller is never read: a token is not even looked at
    return declared


def security(contract: Contract) -> list[dict[str, list[str]]] | None:
    """OpenAPI security requirements: none listed (``{}``) where the token is optional."""
    if contract.credential is not None:
        return [{}, {contract.credential: []}]  # needed only where the operator set it
    if contract.token is Token.NONE and not contract.ticket:
        return None
    requirements: list[dict[str, list[str]]] = [] if contract.token is Token.REQUIRED else [{}]
    if contract.token is not Token.NONE:
        requirements.append({BEARER: []})
    if contract.ticket:
        requirements.append({TICKET: []})
    return requirements
