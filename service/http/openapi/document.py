"""What litestar cannot infer: the request bodies we decode ourselves, the variants' types,
each operation's security and problems, and the constraints the service checks itself.

Post-processes litestar's document once, after the app is built (``refine_openapi``); the
pieces live beside it: ``variants`` (tables, options, commands, events) and ``responses``
(problem answers, cache validators and paging links, as each route declares them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Litestar
from litestar.openapi.spec import BaseSchemaObject

from domain.game import MAX_CLIENT_SEED
from domain.variant import COMPLETE, FORFEIT
from domain.variants import VARIANTS
from service.application.players import MAX_NAME
from service.http.bodies import GAME_STATUSES, CreateGame, CreatePlayer, JoinGame, JoinQueue
from service.http.openapi.reach import drop_unreferenced, require_what_answers_carry
from service.http.openapi.responses import document_errors
from service.http.openapi.variants import (
    FORM_FIELD,
    omitting_defaults,
    ref,
    split_by_variant,
    struct_schemas,
    tag_constant,
    variant_schemas,
)

CARD_PATTERN = r"^((10|[2-9JQKA])[SHDC]|BJ|RJ)$"


def sse_schema(description: str) -> dict[str, Any]:
    """An event stream's messages, as a schema can tell them (each field a string)."""
    fields = {field: {"type": "string"} for field in ("event", "id", "data")}
    return {"description": description, "type": "object", "properties": fields}


SSE_EVENT = sse_schema(
    "`event: event` (data: an EventOut, id: its version), `event: view` (data: a"
    " View), `event: end` (data: the final status), and `: ping` comments."
)
MESSAGE_SSE_EVENT = sse_schema(
    "`event:` the message's kind (your_turn, game_started, game_over; more kinds"
    " may come), `id:` the message's id (send it back as Last-Event-ID), `data:` a PlayerMessage;"
    " and `: ping` comments."
)
SSE_SCHEMAS = {"streamGame": SSE_EVENT, "streamMyMessages": MESSAGE_SSE_EVENT}
PROBLEM_SCHEMA: dict[str, Any] = {
    "title": "Problem",
    "description": "RFC 9457 problem details; `code` is stable and machine-readable.",
    "type": "object",
    "additionalProperties": True,  # extension members, e.g. the current `version` on a 412
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "code": {"type": "string"},
        "instance": {"type": "string"},
    },
    "required": ["type", "title", "status", "detail", "code"],
}
ENUMS: dict[str, Any] = {
    "GameStatus": {"type": "string", "enum": list(GAME_STATUSES)},
    "Perspective": {
        "description": "`public`, `seat:N` (the seat's own secrets too) or `full` (everything).",
        "anyOf": [
            {"type": "string", "enum": ["public", "full"]},
            {"type": "string", "pattern": "^seat:[0-9]+$"},
        ],
    },
    "EndReason": {"type": "string", "enum": [COMPLETE, FORFEIT, "cancelled"]},
}
# Where each enum goes: (component, property) and (operation, query parameter).
ENUM_PROPERTIES = {
    ("View", "status"): "GameStatus",
    ("LobbyEntry", "status"): "GameStatus",
    ("Scoreboard", "status"): "GameStatus",
    ("ReplayPage", "perspective"): "Perspective",
}
NULLABLE_ENUM_PROPERTIES = {
    ("View", "end_reason"): "EndReason",
    ("LobbyEntry", "end_reason"): "EndReason",
    ("Scoreboard", "end_reason"): "EndReason",
}
ENUM_PARAMETERS = {
    ("listGames", "status"): "GameStatus",
    ("listMyGames", "status"): "GameStatus",
    ("replayGame", "perspective"): "Perspective",
}


@dataclass
class Refined(BaseSchemaObject):
    """A part of the document as refined here, rendered exactly (litestar's own rendering
    drops null values, such as a field's ``default: null``)."""

    document: dict[str, Any]

    def to_schema(self) -> dict[str, Any]:
        return self.document


def refine_openapi(app: Litestar) -> None:
    """Refine the app's document in place: every later reader (the JSON at
    /schema/openapi.json, the rendered pages, ``openapi_document``) sees the refined one."""
    openapi = app.openapi_schema
    schema = openapi.to_schema()
    _refine(schema, app)
    components = schema["components"]
    openapi.paths = {path: Refined(item) for path, item in schema["paths"].items()}  # type: ignore[misc]
    openapi.components.schemas = {n: Refined(s) for n, s in components["schemas"].items()}  # type: ignore[misc]
    schemes = components["securitySchemes"]
    openapi.components.security_schemes = {n: Refined(s) for n, s in schemes.items()}  # type: ignore[misc]


def _refine(schema: dict[str, Any], app: Litestar) -> None:
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    paths = schema.get("paths", {})
    bodies = {
        "registerPlayer": CreatePlayer,
        "createGame": CreateGame,
        "joinGame": JoinGame,
        "joinQueue": JoinQueue,
    }
    (generated, defs) = struct_schemas(bodies.values())
    components.update(defs)
    variant_schemas(components)
    components["Problem"] = PROBLEM_SCHEMA
    components.update(ENUMS)
    if "View" in components:
        _document_view(components)
    request_bodies = dict(zip(bodies, generated, strict=True))
    request_bodies["sendCommand"] = ref("Command")
    for operation in _operations(paths):
        body_schema = request_bodies.get(str(operation.get("operationId")))
        if body_schema is not None:
            operation["requestBody"] = {
                "required": operation["operationId"] != "joinGame",
                "content": {"application/json": {"schema": body_schema}},
            }
    _document_constraints(components, paths)
    _document_enums(components, paths)
    _forbid_unknown_fields(components)
    split_by_variant(components)
    _game_ids_are_uuids(schema)
    document_errors(schema, app)
    drop_unreferenced(schema)
    require_what_answers_carry(schema, omitting_defaults())


CHOICE_DESCRIPTION = (
    "A choice form: one kind of command with too many legal commands to list (a Cancellation"
    " Hearts pass, a Double Heartbeat bury, the wings of one airplane with pairs). It is never"
    " sent itself. Its expansion: take `command` and append to its list `field` the cards of"
    " between `min` and `max` entries of `from` (each entry at most once, in the order listed);"
    " every such body is a legal command, and together they are every legal command of that"
    " kind (an airplane's: up to the suits of its triples, which the rules never look at)."
    " Picks giving the same cards are the same command (a double deck may list an entry twice);"
    " `count` is the number of distinct commands. `legal_commands` lists, for each size n from"
    " `min` to `max`, the body made of the first n entries of `from`."
)
VIEW_FIELDS = {
    "legal_commands": "Commands for this seat to send exactly as they are: every legal command"
    " (one per set of ranks where the variant's rules never look at suits), except that a kind"
    " too large to list (see `choice_forms`) is represented by a few of its commands, so every"
    " kind of play has one here. A client that only ever sends one of these can finish any"
    " game.",
    "choice_forms": "The kinds of command too large to list, each as a form whose expansion is"
    " exactly its legal commands; together with `legal_commands` they are every legal command."
    " Empty when `legal_commands` is every legal command. The contract: docs/legal-commands.md.",
    "expiry_pending": "A deadline had passed when this view was made: it shows the game after"
    " the expiry, which the server records shortly (`version` is still the stored one).",
    "end_reason": "How the game ended: `complete`, `forfeit` (fewer than two seats were left) or"
    " `cancelled`; null while it runs.",
    "void": "A cancelled game: `scores` are the points as they stood; there are no winners.",
}


def _document_view(components: dict[str, Any]) -> None:
    """What the view's newer fields mean, and the choice form's loose `command`."""
    properties = components["View"]["properties"]
    for name, description in VIEW_FIELDS.items():
        properties[name]["description"] = description
    if "Choice" in components:
        choice = components["Choice"]
        choice["description"] = CHOICE_DESCRIPTION
        tag_constant(choice)
        # Not a Command: its cards lack the chosen ones (a pass holds none yet).
        choice["properties"]["command"] = ref("ChoiceCommand")
        choice["properties"]["field"] = {"type": "string", "const": FORM_FIELD}
        choice["properties"]["from"]["items"]["items"]["pattern"] = CARD_PATTERN


def _operations(paths: dict[str, Any]) -> list[dict[str, Any]]:
    return [op for item in paths.values() for op in item.values() if isinstance(op, dict)]


def _document_constraints(components: dict[str, Any], paths: dict[str, Any]) -> None:
    """What the service checks itself (answering with a coded error), written into the schema."""
    variants = sorted(VARIANTS)
    components["CreatePlayer"]["properties"]["name"].update(minLength=1, maxLength=MAX_NAME)
    create = components["CreateGame"]["properties"]
    create["variant"]["enum"] = variants
    create["seats"].update(
        minimum=min(v.min_seats for v in VARIANTS.values()),
        maximum=max(v.max_seats for v in VARIANTS.values()),
    )
    for body in ("CreateGame", "JoinGame", "JoinQueue"):
        components[body]["properties"]["client_seed"]["maxLength"] = MAX_CLIENT_SEED
    for component in components.values():
        properties = component.get("properties", {}) if isinstance(component, dict) else {}
        if properties.get("variant", {}).keys() == {"type"}:  # a plain string: name it exactly
            properties["variant"]["enum"] = variants
        if "card" in properties and properties["card"].get("type") == "string":
            properties["card"]["pattern"] = CARD_PATTERN
        if "cards" in properties and properties["cards"].get("type") == "array":
            properties["cards"]["items"]["pattern"] = CARD_PATTERN
    parameters: dict[tuple[str, str], dict[str, Any]] = {
        ("listGames", "variant"): {"enum": variants},
        ("getLeaderboard", "variant"): {"enum": variants},
        ("getRules", "variant"): {"enum": variants},
        ("leaveQueue", "variant"): {"enum": variants},
    }
    headers: dict[str, dict[str, Any]] = {
        "Idempotency-Key": {"minLength": 1, "maxLength": 128},
        "If-Match": {"pattern": r'^(W/)?"?[0-9]+"?$'},
    }
    for operation in _operations(paths):
        for parameter in operation.get("parameters", []):
            extra = parameters.get((str(operation.get("operationId")), str(parameter["name"])))
            if extra is None and parameter["in"] == "header":
                extra = headers.get(parameter["name"])
            if extra:
                parameter["schema"] = {"type": "string", **extra}
        sse = SSE_SCHEMAS.get(str(operation.get("operationId")))
        if sse is not None:
            operation["responses"]["200"]["content"] = {"text/event-stream": {"schema": sse}}


def _document_enums(components: dict[str, Any], paths: dict[str, Any]) -> None:
    for (component, name), enum in ENUM_PROPERTIES.items():
        components[component]["properties"][name] = ref(enum)
    for (component, name), enum in NULLABLE_ENUM_PROPERTIES.items():
        properties = components[component]["properties"]
        properties[name] = {**properties[name], "oneOf": [ref(enum), {"type": "null"}]}
        properties[name].pop("anyOf", None)
    for operation in _operations(paths):
        for parameter in operation.get("parameters", []):
            key = (str(operation.get("operationId")), str(parameter["name"]))
            if key in ENUM_PARAMETERS:
                parameter["schema"] = ref(ENUM_PARAMETERS[key])


def _game_ids_are_uuids(value: Any) -> None:
    """Every ``game_id`` (and the game of an event) is a UUID, as in the paths."""
    if isinstance(value, dict):
        game_id = value.get("properties", {}).get("game_id")
        if isinstance(game_id, dict) and game_id.get("type") == "string":
            game_id["format"] = "uuid"
        for item in value.values():
            _game_ids_are_uuids(item)
    elif isinstance(value, list):
        for item in value:
            _game_ids_are_uuids(item)


def _forbid_unknown_fields(components: dict[str, Any]) -> None:
    """msgspec marks closed objects; make sure every object schema says whether it is closed."""
    for component in components.values():
        if (
            isinstance(component, dict)
            and component.get("type") == "object"
            and "properties" in component
        ):
            component.setdefault("additionalProperties", False)


def openapi_document(app: Litestar) -> dict[str, Any]:
    return app.openapi_schema.to_schema()


def openapi_json(app: Litestar) -> bytes:
    return (
        msgspec.json.format(msgspec.json.encode(openapi_document(app), order="sorted"), indent=2)
        + b"\n"
    )
