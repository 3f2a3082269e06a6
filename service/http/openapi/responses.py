"""Each operation's security and problem answers, from what its route declares.

What a handler can refuse, and who may call it, is in its route's contract
(``service/http/contract.py``); what the framework and the middleware answer around it
follows from the route's shape: typed query parameters that fail to parse (400), a typed path
parameter that does not parse and so matches no route (404), and the rate limits on every
route but the probes (429).
"""

from __future__ import annotations

from collections.abc import Iterator
from http import HTTPStatus
from typing import Any

from litestar import Litestar
from litestar.handlers import HTTPRouteHandler

from service.errors import INVALID_PARAMETER
from service.http.contract import (
    BEARER,
    CONTRACT,
    HTTP_CODES,
    INTERNAL_ERROR,
    METRICS_TOKEN,
    NO_ROUTE,
    OTHER_HTTP_CODE,
    RATE_LIMITED,
    TICKET,
    Contract,
)
from service.http.limits import UNLIMITED
from service.http.openapi.variants import ref

SECURITY_SCHEMES: dict[str, Any] = {
    BEARER: {
        "type": "http",
        "scheme": "bearer",
        "description": "The token `POST /players` shows once. Operations that list `{}` among"
        " their security requirements take it optionally: with it the answer is the caller's"
        " (their seat's view), without it the spectator's.",
    },
    TICKET: {
        "type": "apiKey",
        "in": "query",
        "name": "ticket",
        "description": "A one-minute, read-only ticket for one game's stream (POST"
        " /games/{game_id}/stream-ticket) or for the player's own stream of messages (POST"
        " /players/me/stream-ticket), for browsers, which cannot send headers on EventSource.",
    },
    METRICS_TOKEN: {
        "type": "http",
        "scheme": "bearer",
        "description": "`CARDLEDGER_METRICS_TOKEN`: where the operator sets it, `GET /metrics`"
        " answers only a scrape that sends it as a bearer token (401 otherwise); unset (the"
        " default), the metrics are open.",
    },
}
STATUS_WORDS = {
    400: "The request is malformed: its JSON, a parameter or a header.",
    401: "No valid credentials: a token (or ticket) is required, or the one sent is unknown.",
    403: "The caller may not do this.",
    404: "No such game (or path).",
    409: "Well-formed, but the game's state does not allow it now; nothing was recorded.",
    412: "`If-Match` names another version; the problem's `version` is the current one.",
    413: "The body is larger than the service accepts.",
    422: "The request is well-formed JSON but not a valid request of this operation.",
    429: "Too many requests (or live streams) from this client; see `Retry-After`.",
    503: "The store is unavailable or too contended; nothing was changed unless the problem"
    " says otherwise. Retry after `Retry-After` seconds (with the same Idempotency-Key).",
}
RETRY_AFTER = {"description": "Seconds to wait before trying again", "schema": {"type": "integer"}}
STATUS_HEADERS: dict[int, dict[str, Any]] = {
    401: {"WWW-Authenticate": {"description": "`Bearer`", "schema": {"type": "string"}}},
    429: {"Retry-After": RETRY_AFTER},
    503: {"Retry-After": RETRY_AFTER},
}
CACHE_HEADERS: dict[str, Any] = {
    "ETag": {
        "description": "A strong validator of this answer: send it back in `If-None-Match`.",
        "schema": {"type": "string"},
    },
    "Cache-Control": {
        "description": "`public, max-age=31536000, immutable` once the game is over (the answer"
        " can never change), else `private, no-cache`.",
        "schema": {"type": "string"},
    },
}
LINK: dict[str, Any] = {
    "description": 'The next page, while there is one: `<URL>; rel="next"`, the URL relative to'
    " this server (this query with the next `cursor`, or for events and replay the next `after`"
    " or `from`). Absent on the last page.",
    "required": False,
    "schema": {"type": "string"},
}
IF_NONE_MATCH: dict[str, Any] = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "ETags you hold: `304 Not Modified` if the answer is still one of them.",
    "schema": {"type": "string"},
}


def route_handlers(app: Litestar) -> Iterator[tuple[str, HTTPRouteHandler]]:
    for route in app.routes:
        for handler in getattr(route, "route_handlers", []):
            documented = isinstance(handler, HTTPRouteHandler) and handler.include_in_schema
            if documented and isinstance(handler.operation_id, str):
                yield handler.operation_id, handler


def contract_of(handler: HTTPRouteHandler) -> Contract:
    contract = handler.opt.get(CONTRACT)
    if not isinstance(contract, Contract):
        raise TypeError(f"{handler.operation_id} declares no contract (service/http/contract.py)")
    return contract


def problems_of(
    contract: Contract, handler: HTTPRouteHandler, operation: dict[str, Any]
) -> dict[int, set[str]]:
    """The declared problems, and those the route's shape adds."""
    found = contract.problems()
    parameters = operation.get("parameters", [])
    shaped = set()
    if any(_can_fail_to_parse(parameter) for parameter in parameters):
        shaped.add(INVALID_PARAMETER)
    if any(p["in"] == "path" and "format" in p.get("schema", {}) for p in parameters):
        shaped.add(NO_ROUTE)  # /games/not-a-uuid matches no route at all
    if not any(path.startswith(tuple(UNLIMITED)) for path in handler.paths):
        shaped.add(RATE_LIMITED)
    for status, code in shaped:
        found.setdefault(status, set()).add(code)
    return found


def _can_fail_to_parse(parameter: dict[str, Any]) -> bool:
    """litestar refuses (400) a query or header value that does not parse or fit its bounds."""
    schema = parameter.get("schema", {})
    typed = schema.get("type") not in (None, "string") or any(
        isinstance(option, dict) and option.get("type") not in (None, "string", "null")
        for option in schema.get("oneOf", [])
    )
    return parameter["in"] in ("query", "header") and (typed or parameter.get("required", False))


def every_code(problems: list[dict[int, set[str]]]) -> list[str]:
    """Every stable code a problem answer can carry: the operations' and the framework's."""
    codes = {code for found in problems for codes in found.values() for code in codes}
    return sorted(codes | set(HTTP_CODES.values()) | {OTHER_HTTP_CODE, INTERNAL_ERROR})


def problem_response(status: int, codes: set[str]) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": STATUS_WORDS.get(status, HTTPStatus(status).phrase),
        "content": {
            "application/problem+json": {
                "schema": {
                    "allOf": [ref("Problem")],
                    "properties": {"code": {"type": "string", "enum": sorted(codes)}},
                }
            }
        },
    }
    if status in STATUS_HEADERS:
        response["headers"] = STATUS_HEADERS[status]
    return response


def document_errors(schema: dict[str, Any], app: Litestar) -> None:
    """Problem answers, cache validators and paging links on every operation of the document,
    as its route declares them."""
    components = schema.setdefault("components", {})
    components.setdefault("securitySchemes", {}).update(SECURITY_SCHEMES)
    operations = {
        op["operationId"]: op
        for item in schema.get("paths", {}).values()
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    }
    every: list[dict[int, set[str]]] = []
    for operation_id, handler in route_handlers(app):
        operation = operations[operation_id]
        contract = contract_of(handler)
        problems = problems_of(contract, handler, operation)
        every.append(problems)
        responses = operation.setdefault("responses", {})
        for status in [key for key in responses if key.startswith("4")]:
            del responses[status]  # litestar's generic 400
        for status in sorted(problems):
            responses[str(status)] = problem_response(status, problems[status])
        if contract.paged:
            responses["200"].setdefault("headers", {})["Link"] = LINK
        if contract.cached:
            operation.setdefault("parameters", []).append(IF_NONE_MATCH)
            responses["200"].setdefault("headers", {}).update(CACHE_HEADERS)
            responses["304"] = {
                "description": "Not Modified: the `If-None-Match` ETag is still current.",
                "headers": CACHE_HEADERS,
            }
    components["schemas"]["ProblemCode"] = {
        "description": "Every stable code a problem answer can carry; each operation lists"
        " those it can answer with, per status.",
        "type": "string",
        "enum": every_code(every),
    }
    components["schemas"]["Problem"]["properties"]["code"] = ref("ProblemCode")
