"""The committed OpenAPI document is the app's, and says what clients need to know."""

from __future__ import annotations

import json
from pathlib import Path

from service.http.app import create_app
from service.http.openapi import openapi_json
from service.settings import Settings

COMMITTED = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def generated() -> bytes:
    return openapi_json(create_app(Settings(in_memory=True)))


def test_committed_document_matches_the_app() -> None:
    assert COMMITTED.read_bytes() == generated(), (
        "run `make openapi` and commit openapi/openapi.json"
    )


def test_commands_are_a_discriminated_union_of_closed_objects() -> None:
    document = json.loads(generated())
    schemas = document["components"]["schemas"]
    union = schemas["OpenHandCommand"]
    assert union["discriminator"]["propertyName"] == "type"
    assert set(union["discriminator"]["mapping"]) == {"play", "vote_cancel", "leave"}
    for ref in union["oneOf"]:
        target = schemas[ref["$ref"].rsplit("/", 1)[1]]
        assert target["additionalProperties"] is False
    body = document["paths"]["/games/{game_id}/commands"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Command"}
    for name in ("CreateGame", "CreatePlayer", "JoinGame"):
        assert schemas[name]["additionalProperties"] is False


def test_every_operation_is_named_and_documents_problems() -> None:
    document = json.loads(generated())
    operations = [
        op for item in document["paths"].values() for op in item.values() if isinstance(op, dict)
    ]
    assert len({op["operationId"] for op in operations}) == len(operations) >= 12
    for operation in operations:
        assert operation["summary"]
        problem = operation["responses"]["4XX"]["content"]["application/problem+json"]
        assert problem["schema"] == {"$ref": "#/components/schemas/Problem"}
