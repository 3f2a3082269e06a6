"""Every schema in openapi/openapi.json is exactly typed: what a generator needs to type a client
without casts.

The walk visits every schema the document holds (components, parameters, bodies, answers,
headers) and everything nested in them, and fails on an enum or constant without its type, a
discriminator that maps a tag to anything but an object schema, a schema with no type at all
(or an object whose members are unknown), and a media type that names its charset twice.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from domain.variants import VARIANTS
from service.http.app import create_app
from service.settings import NO_LIMITS, Settings

ROOT = Path(__file__).resolve().parents[3]
COMMITTED = ROOT / "openapi" / "openapi.json"
REF = "#/components/schemas/"
COMBINATORS = ("oneOf", "anyOf", "allOf")
# Where the server does not know the type, or one schema cannot say it: path pattern -> why.
UNTYPED_ALLOWED = {
    r"^components/schemas/\w+VariantInfo/properties/options_schema(/additionalProperties)?$": (
        "a JSON Schema document (of the variant's options): its members are any JSON"
    ),
    r"^components/schemas/GameCreated/properties/options$": (
        "one GameCreated schema serves every variant's events, and a variant's options carry"
        " no tag a union could tell them apart by: it is the `<Variant>Options` of `variant`"
    ),
}


def document() -> dict[str, Any]:
    return dict(json.loads(COMMITTED.read_text()))


def operation_schemas(doc: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """Every schema an operation holds directly, with where it is."""
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            here = f"paths/{path}/{method}"
            for parameter in operation.get("parameters", []):
                yield f"{here}/parameters/{parameter['name']}", parameter["schema"]
            for media, content in operation.get("requestBody", {}).get("content", {}).items():
                yield f"{here}/requestBody/{media}", content["schema"]
            for status, response in operation.get("responses", {}).items():
                for media, content in response.get("content", {}).items():
                    yield f"{here}/responses/{status}/{media}", content["schema"]
                for name, header in response.get("headers", {}).items():
                    yield f"{here}/responses/{status}/headers/{name}", header["schema"]


def nested(path: str, schema: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """The schemas directly inside ``schema``."""
    for name, member in schema.get("properties", {}).items():
        yield f"{path}/properties/{name}", member
    for key in ("items", "additionalProperties", "not"):
        if isinstance(schema.get(key), dict):
            yield f"{path}/{key}", schema[key]
    for key in ("prefixItems", *COMBINATORS):
        for index, member in enumerate(schema.get(key, [])):
            yield f"{path}/{key}/{index}", member


def every_schema(doc: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    pending = [
        (f"components/schemas/{name}", s) for name, s in doc["components"]["schemas"].items()
    ]
    pending += list(operation_schemas(doc))
    while pending:
        path, schema = pending.pop()
        assert isinstance(schema, dict), (path, schema)
        yield path, schema
        pending += list(nested(path, schema))


def faults(doc: dict[str, Any]) -> list[str]:
    """Everything a generator would have to guess at, one line each."""
    components = doc["components"]["schemas"]
    found = []
    for path, schema in every_schema(doc):
        allowed = any(re.search(pattern, path) for pattern in UNTYPED_ALLOWED)
        if ("enum" in schema or "const" in schema) and "type" not in schema:
            found.append(f"{path}: an enum or constant without its type")
        elif not any(key in schema for key in ("type", "$ref", *COMBINATORS)) and not allowed:
            found.append(f"{path}: no type at all")
        members = schema.get("additionalProperties")
        open_object = "properties" not in schema and members in (None, True, {})
        if schema.get("type") == "object" and open_object and not allowed:
            found.append(f"{path}: an object whose members are not typed")
        for tag, target in schema.get("discriminator", {}).get("mapping", {}).items():
            mapped = components.get(target.removeprefix(REF), {})
            if mapped.get("type") != "object":
                found.append(f"{path}: the discriminator maps {tag!r} to {target}, not an object")
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            for status, response in operation.get("responses", {}).items():
                for media in response.get("content", {}):
                    if media.lower().count("charset") > 1:
                        found.append(f"paths/{path}/{method}/{status}: {media}")
    return found


def test_every_schema_is_exactly_typed() -> None:
    assert faults(document()) == []


def test_every_allowed_exception_is_still_needed() -> None:
    """An exception that matches nothing any more is dropped from the list."""
    paths = [path for path, _ in every_schema(document())]
    for pattern in UNTYPED_ALLOWED:
        assert any(re.search(pattern, path) for path in paths), pattern


@pytest.mark.parametrize(
    ("planted", "fault"),
    [
        ({"enum": ["a", "b"]}, "an enum or constant without its type"),
        ({"const": "a"}, "an enum or constant without its type"),
        ({}, "no type at all"),
        ({"type": "object"}, "an object whose members are not typed"),
        ({"oneOf": [{"$ref": REF + "Command"}], "discriminator": {
            "propertyName": "type", "mapping": {"x": REF + "Command"}}},
         "the discriminator maps 'x' to #/components/schemas/Command, not an object"),
    ],
)  # fmt: skip
def test_the_walk_finds_a_planted_fault(planted: dict[str, Any], fault: str) -> None:
    doc = document()
    items = doc["components"]["schemas"]["EventPage"]["properties"]["events"]
    items["items"] = {"type": "array", "items": planted}  # nested, to prove the walk goes deep
    assert [line.rsplit(": ", 1)[1] for line in faults(doc)] == [fault]


def test_the_walk_finds_a_doubled_charset() -> None:
    doc = document()
    content = doc["paths"]["/rules/{variant}"]["get"]["responses"]["200"]["content"]
    (media,) = content
    content[media + "; charset=utf-8; charset=utf-8"] = content.pop(media)
    assert len(faults(doc)) == 1


@pytest.mark.parametrize("path", ["/rules/heartbeat", "/metrics", "/"])
def test_text_answers_name_their_charset_once(path: str) -> None:
    with TestClient(create_app(Settings(in_memory=True, limits=NO_LIMITS))) as client:
        answer = client.get(path)
    assert answer.status_code == 200
    assert answer.headers["content-type"].count("charset") == 1, answer.headers["content-type"]


def test_the_rules_page_is_documented_as_served() -> None:
    operation = document()["paths"]["/rules/{variant}"]["get"]
    (media,) = operation["responses"]["200"]["content"]
    with TestClient(create_app(Settings(in_memory=True, limits=NO_LIMITS))) as client:
        served = client.get(f"/rules/{next(iter(VARIANTS))}").headers["content-type"]
    assert served.split(";")[0] == media
