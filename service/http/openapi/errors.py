"""Each operation's security and problem answers, derived from its handler's code.

What a handler can refuse comes from the refusals it reaches (``codes``); what the
framework and the middleware answer around it comes from its shape: a body it reads can be too
large (413), typed query parameters can fail to parse (400), a typed path parameter that does
not parse matches no route (404), every route but the probes is rate limited (429), and any
route that reaches the store can find it unavailable (503).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from litestar import Litestar
from litestar.handlers import HTTPRouteHandler

from service.http.caching import Validator
from service.http.callers import caller, player
from service.http.limits import UNLIMITED
from service.http.openapi.codes import CodeIndex
from service.http.openapi.variants import ref
from service.http.paging import next_link
from service.http.problems import HTTP_CODES
from service.live.tickets import TicketBook

BEARER = "bearer"
TICKET = "streamTicket"
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
        " /games/{game_id}/stream-ticket), for browsers, which cannot send headers on"
        " EventSource.",
    },
}
# Codes the framework's own refusals get, beyond the literal ones in the source: problems.py
# maps each HTTP status to one (HTTP_CODES) and any other status to this.
OTHER_HTTP_CODE = "http_error"
BODY_TOO_LARGE, RATE_LIMITED, NO_ROUTE = HTTP_CODES[413], HTTP_CODES[429], HTTP_CODES[404]
INVALID_PARAMETER = "invalid_parameter"  # problems.on_validation_error
STORE_UNAVAILABLE = "store_unavailable"  # problems.on_store_unavailable
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


def function_key(function: Callable[..., Any]) -> str:
    return f"{function.__module__}:{function.__qualname__}"


@dataclass
class OperationErrors:
    token: str  # "required", "optional" or "none"
    ticket: bool = False
    not_modified: bool = False
    paged: bool = False
    problems: dict[int, set[str]] = field(default_factory=dict)

    def add(self, status: int, code: str) -> None:
        self.problems.setdefault(status, set()).add(code)


def route_handlers(app: Litestar) -> Iterator[tuple[str, HTTPRouteHandler]]:
    for route in app.routes:
        for handler in getattr(route, "route_handlers", []):
            documented = isinstance(handler, HTTPRouteHandler) and handler.include_in_schema
            if documented and isinstance(handler.operation_id, str):
                yield handler.operation_id, handler


def handler_key(handler: HTTPRouteHandler) -> str:
    function = getattr(handler.fn, "func", handler.fn)  # sync handlers come wrapped
    return function_key(function)


def operation_errors(
    index: CodeIndex, handler: HTTPRouteHandler, operation: dict[str, Any]
) -> OperationErrors:
    root = [handler_key(handler)]
    reached = index.reachable(root)
    token = (
        "required"
        if function_key(player) in reached
        else "optional"
        if function_key(caller) in reached
        else "none"
    )
    found = OperationErrors(
        token=token,
        ticket=function_key(TicketBook.redeem) in reached,
        not_modified=function_key(Validator.__init__) in reached,  # its answer() may be 304
        paged=function_key(next_link) in reached,
    )
    for refusal in index.refusals(root):
        found.add(refusal.status, refusal.code)
    if "body" in handler.parsed_fn_signature.parameters:  # a RawBody: read, so capped
        found.add(413, BODY_TOO_LARGE)
    parameters = operation.get("parameters", [])
    if any(_can_fail_to_parse(parameter) for parameter in parameters):
        found.add(400, INVALID_PARAMETER)
    if any(p["in"] == "path" and "format" in p.get("schema", {}) for p in parameters):
        found.add(404, NO_ROUTE)  # /games/not-a-uuid matches no route at all
    if not any(path.startswith(tuple(UNLIMITED)) for path in handler.paths):
        found.add(429, RATE_LIMITED)
    if any(key.startswith(("service.store.", "service.background.")) for key in reached):
        found.add(503, STORE_UNAVAILABLE)
    return found


def _can_fail_to_parse(parameter: dict[str, Any]) -> bool:
    """litestar refuses (400) a query or header value that does not parse or fit its bounds."""
    schema = parameter.get("schema", {})
    typed = schema.get("type") not in (None, "string") or any(
        isinstance(option, dict) and option.get("type") not in (None, "string", "null")
        for option in schema.get("oneOf", [])
    )
    return parameter["in"] in ("query", "header") and (typed or parameter.get("required", False))


def every_code(index: CodeIndex) -> list[str]:
    """Every stable code a problem answer can carry."""
    codes = {refusal.code for refusal in index.refusals()} | set(HTTP_CODES.values())
    return sorted(codes | {OTHER_HTTP_CODE})


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


def security(errors: OperationErrors) -> list[dict[str, list[str]]] | None:
    if errors.token == "none" and not errors.ticket:
        return None
    requirements: list[dict[str, list[str]]] = [] if errors.token == "required" else [{}]
    if errors.token != "none":
        requirements.append({BEARER: []})
    if errors.ticket:
        requirements.append({TICKET: []})
    return requirements


def document_errors(schema: dict[str, Any], app: Litestar, index: CodeIndex) -> None:
    """Security, problem answers, cache validators and paging links on every operation of the
    document."""
    components = schema.setdefault("components", {})
    components.setdefault("securitySchemes", {}).update(SECURITY_SCHEMES)
    components["schemas"]["ProblemCode"] = {
        "description": "Every stable code a problem answer can carry; each operation lists"
        " those it can answer with, per status.",
        "type": "string",
        "enum": every_code(index),
    }
    components["schemas"]["Problem"]["properties"]["code"] = ref("ProblemCode")
    operations = {
        op["operationId"]: op
        for item in schema.get("paths", {}).values()
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    }
    for operation_id, handler in route_handlers(app):
        operation = operations[operation_id]
        errors = operation_errors(index, handler, operation)
        responses = operation.setdefault("responses", {})
        for status in [key for key in responses if key.startswith("4")]:
            del responses[status]  # litestar's generic 400 and our old catch-all
        for status in sorted(errors.problems):
            responses[str(status)] = problem_response(status, errors.problems[status])
        requirements = security(errors)
        if requirements is not None:
            operation["security"] = requirements
        if errors.paged:
            responses["200"].setdefault("headers", {})["Link"] = LINK
        if errors.not_modified:
            operation.setdefault("parameters", []).append(IF_NONE_MATCH)
            responses["200"].setdefault("headers", {}).update(CACHE_HEADERS)
            responses["304"] = {
                "description": "Not Modified: the `If-None-Match` ETag is still current.",
                "headers": CACHE_HEADERS,
            }
