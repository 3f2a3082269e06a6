"""What litestar cannot infer: the request bodies we decode ourselves and the command unions."""

from __future__ import annotations

from typing import Any, Union

import msgspec
from litestar import Litestar
from litestar._openapi.plugin import OpenAPIPlugin

from domain.commands import COMMON_COMMANDS
from domain.variants import VARIANTS
from service.api import CreateGame, CreatePlayer, JoinGame

REF = "#/components/schemas/{name}"
PROBLEM_SCHEMA: dict[str, Any] = {
    "title": "Problem",
    "description": "RFC 9457 problem details; `code` is stable and machine-readable.",
    "type": "object",
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
    unions = command_unions()
    bodies = {"registerPlayer": CreatePlayer, "createGame": CreateGame, "joinGame": JoinGame}
    types = [*bodies.values(), *unions.values()]
    (generated, defs) = msgspec.json.schema_components(types, ref_template=REF)
    components.update(defs)
    named = dict(zip([*bodies, *unions], generated, strict=True))
    for name in unions:
        union = dict(named[name])
        union["oneOf"] = union.pop("anyOf")  # the tags are exclusive
        components[name] = union
    components["Problem"] = PROBLEM_SCHEMA
    components["Command"] = {
        "description": "A command; which ones a game accepts depends on its variant.",
        "oneOf": [{"$ref": REF.format(name=name)} for name in unions],
    }
    if "View" in components:
        components["View"]["properties"]["legal_commands"] = {
            "type": "array",
            "items": {"$ref": REF.format(name="Command")},
        }
    for path_item in schema.get("paths", {}).values():
        for operation in path_item.values():
            if not isinstance(operation, dict):
                continue
            responses = operation.setdefault("responses", {})
            responses.pop("400", None)
            responses["4XX"] = PROBLEM_RESPONSE
            operation_id = operation.get("operationId")
            if operation_id in bodies:
                body_schema = named[operation_id]
            elif operation_id == "sendCommand":
                body_schema = {"$ref": REF.format(name="Command")}
            else:
                continue
            operation["requestBody"] = {
                "required": operation_id != "joinGame",
                "content": {"application/json": {"schema": body_schema}},
            }
    _forbid_unknown_fields(components)


def _forbid_unknown_fields(components: dict[str, Any]) -> None:
    """msgspec marks closed objects; make sure every request schema says so."""
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
