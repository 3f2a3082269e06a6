"""What litestar cannot infer: the request bodies we decode ourselves and the command unions."""

from __future__ import annotations

from typing import Any, Union

import msgspec
from litestar import Litestar
from litestar._openapi.plugin import OpenAPIPlugin

from domain.commands import COMMON_COMMANDS
from domain.game import MAX_CLIENT_SEED
from domain.variants import VARIANTS
from service.http.bodies import CreateGame, CreatePlayer, JoinGame
from service.players import MAX_NAME

REF = "#/components/schemas/{name}"
CARD_PATTERN = r"^((10|[2-9JQKA])[SHDC]|BJ|RJ)$"
SSE_EVENT: dict[str, Any] = {
    "description": "`event: event` (data: an EventOut, id: its version), `event: view` (data: a"
    " View), `event: end` (data: the final status), and `: ping` comments.",
    "type": "object",
    "properties": {
        "event": {"type": "string"},
        "id": {"type": "string"},
        "data": {"type": "string"},
    },
}
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
PROBLEM_RESPONSE: dict[str, Any] = {
    "description": "The request was refused; nothing changed.",
    "content": {"application/problem+json": {"schema": {"$ref": REF.format(name="Problem")}}},
}


def _pascal(variant_id: str) -> str:
    return "".join(part.capitalize() for part in variant_id.split("-"))


def command_unions() -> dict[str, Any]:
    """One discriminated union per variant, each named ``<Variant>Command``."""
    return {
        f"{_pascal(variant.id)}Command": Union[(*COMMON_COMMANDS, *variant.commands)]
        for variant in VARIANTS.values()
    }


def refine_openapi(app: Litestar) -> None:
    schema = app.plugins.get(OpenAPIPlugin).provide_openapi_schema()
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    paths = schema.get("paths", {})
    unions = command_unions()
    bodies = {"registerPlayer": CreatePlayer, "createGame": CreateGame, "joinGame": JoinGame}
    types = [*bodies.values(), *unions.values()]
    (generated, defs) = msgspec.json.schema_components(types, ref_template=REF)
    components.update(defs)
    named = dict(zip([*bodies, *unions], generated, strict=True))
    for name in unions:
        union = dict(named[name])
        union["oneOf"] = union.pop("anyOf")  # within a variant the tags are exclusive
        components[name] = union
    components["Problem"] = PROBLEM_SCHEMA
    components["Command"] = {
        "description": "A command; which ones a game accepts depends on its variant.",
        # anyOf: the common commands (vote_cancel, leave) belong to every variant's union.
        "anyOf": [{"$ref": REF.format(name=name)} for name in unions],
    }
    if "View" in components:
        _document_view(components)
    request_bodies = {name: named[name] for name in bodies}
    request_bodies["sendCommand"] = {"$ref": REF.format(name="Command")}
    for operation in _operations(paths):
        responses = operation.setdefault("responses", {})
        responses.pop("400", None)
        responses["4XX"] = PROBLEM_RESPONSE
        body_schema = request_bodies.get(str(operation.get("operationId")))
        if body_schema is not None:
            operation["requestBody"] = {
                "required": operation["operationId"] != "joinGame",
                "content": {"application/json": {"schema": body_schema}},
            }
    _document_constraints(components, paths)
    _forbid_unknown_fields(components)


CHOICE_DESCRIPTION = (
    "A choice form: one entry of `legal_commands` standing for many commands. Take `command` and"
    " append to its list `field` the cards of between `min` and `max` entries of `from` (each"
    " entry at most once, in the order listed): every such body is a legal command, and no other"
    " of that shape is. Picks giving the same cards are the same command (a double deck may list"
    " an entry twice); `count` is the number of distinct commands. Used where listing them all"
    " would swamp the view: a Cancellation Hearts pass, a Double Heartbeat bury, the wings of an"
    " airplane with pairs."
)
VIEW_FIELDS = {
    "legal_commands": "Every legal command for this seat: ready-to-send bodies (send one as it"
    " is) and choice forms (`type: choice`), which stand for many bodies at once.",
    "choice_forms": "The command types that `legal_commands` gives as choice forms right now"
    " (empty: every entry is a ready-to-send body).",
    "expiry_pending": "A deadline had passed when this view was made: it shows the game after"
    " the expiry, which the server records shortly (`version` is still the stored one).",
    "end_reason": "How the game ended: `complete`, `forfeit` (fewer than two seats were left) or"
    " `cancelled`; null while it runs.",
    "void": "A cancelled game: `scores` are the points as they stood; there are no winners.",
}


def _document_view(components: dict[str, Any]) -> None:
    """The view's legal commands: plain bodies or choice forms; what its newer fields mean."""
    properties = components["View"]["properties"]
    properties["legal_commands"] = {
        "type": "array",
        "items": {
            "anyOf": [{"$ref": REF.format(name="Command")}, {"$ref": REF.format(name="Choice")}]
        },
    }
    for name, description in VIEW_FIELDS.items():
        properties[name]["description"] = description
    if "Choice" in components:
        choice = components["Choice"]
        choice["description"] = CHOICE_DESCRIPTION
        # Not a Command: its `field` lacks the chosen cards (a pass template holds no card yet).
        choice["properties"]["command"] = {
            "description": "The command to complete: its `type` and every field but the chosen"
            " cards; `field` holds the cards fixed in advance (often none).",
            "type": "object",
            "properties": {"type": {"type": "string"}},
            "required": ["type"],
            "additionalProperties": True,
        }


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
    for body in ("CreateGame", "JoinGame"):
        components[body]["properties"]["client_seed"]["maxLength"] = MAX_CLIENT_SEED
    for component in components.values():
        properties = component.get("properties", {}) if isinstance(component, dict) else {}
        if "card" in properties and properties["card"].get("type") == "string":
            properties["card"]["pattern"] = CARD_PATTERN
        if "cards" in properties and properties["cards"].get("type") == "array":
            properties["cards"]["items"]["pattern"] = CARD_PATTERN
    parameters: dict[tuple[str, str], dict[str, Any]] = {
        ("listGames", "status"): {"enum": ["waiting", "active", "finished", "cancelled"]},
        ("listGames", "variant"): {"enum": variants},
        ("getLeaderboard", "variant"): {"enum": variants},
        ("getRules", "variant"): {"enum": variants},
        ("replayGame", "perspective"): {"pattern": r"^(public|full|seat:[0-9]+)$"},
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
        if operation.get("operationId") == "streamGame":
            operation["responses"]["200"]["content"] = {"text/event-stream": {"schema": SSE_EVENT}}


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
    return app.plugins.get(OpenAPIPlugin).provide_openapi_schema()


def openapi_json(app: Litestar) -> bytes:
    return (
        msgspec.json.format(msgspec.json.encode(openapi_document(app), order="sorted"), indent=2)
        + b"\n"
    )
