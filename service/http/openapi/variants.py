"""Per-variant schemas: table state, options, commands and event payloads.

litestar sees ``View.table``, ``options`` and ``EventOut.payload`` as ``Any``: here they get the
msgspec Structs behind them (``msgspec.json.schema_components``), joined by discriminators.
Commands and events carry a ``type`` tag; tables and options do not, so the documents holding
them (views, lobby entries, game creation, variant descriptions) get one schema per variant,
told apart by their ``variant`` (or ``id``).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from domain.commands import COMMON_COMMANDS, Command
from domain.events import tag_of_type
from domain.perspective import PUBLIC
from domain.variant import Variant
from domain.variants import VARIANTS, event_types

REF = "#/components/schemas/{name}"
Schemas = dict[str, Any]


def ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(name=name)}


def pascal(variant_id: str) -> str:
    return "".join(part.capitalize() for part in variant_id.split("-"))


def table_type(variant: Variant[Any, Any]) -> type[msgspec.Struct]:
    """The Struct a variant's ``public_table`` answers with (asked of a table before its
    deal: the contract types it only as ``msgspec.Struct``)."""
    table = variant.setup(variant.options_type(), variant.min_seats)
    return type(variant.public_table(table, PUBLIC))


def command_types() -> list[type[Command]]:
    kinds = [*COMMON_COMMANDS, *(kind for v in VARIANTS.values() for kind in v.commands)]
    return list(dict.fromkeys(kinds))


def _safe_name(name: str) -> str:
    """msgspec names generic Structs like ``Secret_tuple_str__...__``: keep what a generator
    can turn into a class name."""
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_")


def _rename(value: Any, renames: dict[str, str]) -> Any:
    if isinstance(value, dict):
        if isinstance(value.get("$ref"), str):
            name = value["$ref"].rsplit("/", 1)[1]
            return {**value, "$ref": REF.format(name=renames.get(name, name))}
        return {key: _rename(item, renames) for key, item in value.items()}
    if isinstance(value, list):
        return [_rename(item, renames) for item in value]
    return value


def _fixed_tuples(value: Any) -> Any:
    """msgspec writes a fixed-length tuple as ``prefixItems`` with ``items: false``, which is
    JSON Schema but which generators cannot read: say ``items`` too (the one type, or any of
    them), keeping the length bounds."""
    if isinstance(value, list):
        return [_fixed_tuples(item) for item in value]
    if not isinstance(value, dict):
        return value
    value = {key: _fixed_tuples(item) for key, item in value.items()}
    if value.get("items") is False and "prefixItems" in value:
        kinds = list(
            {msgspec.json.encode(k, order="sorted"): k for k in value["prefixItems"]}.values()
        )
        value["items"] = kinds[0] if len(kinds) == 1 else {"anyOf": kinds}
    return value


def tag_constant(schema: dict[str, Any]) -> None:
    """A tagged Struct's ``type`` as a constant that is also its default: a generated client
    then fills it in (``PlayCard(card="QS")``) and tells the members of a union apart by it."""
    tag = schema.get("properties", {}).get("type")
    if isinstance(tag, dict) and len(tag.get("enum", ())) == 1:
        (value,) = tag["enum"]
        schema["properties"]["type"] = {"type": "string", "const": value, "default": value}
    elif isinstance(tag, dict) and "const" in tag:
        schema["properties"]["type"] = {
            "type": "string",
            "const": tag["const"],
            "default": tag["const"],
        }


def struct_schemas(types: Iterable[type[Any]]) -> tuple[list[dict[str, Any]], Schemas]:
    """msgspec's schemas of the types, with names a generator can use; tables are named
    ``<Variant>Table`` (their Structs are ``<Variant>View``, which names a whole view here)."""
    (generated, defs) = msgspec.json.schema_components(list(types), ref_template=REF)
    renames = {name: _safe_name(name) for name in defs}
    for variant in VARIANTS.values():
        renames[table_type(variant).__name__] = f"{pascal(variant.id)}Table"
    schemas = {renames[name]: _fixed_tuples(_rename(s, renames)) for name, s in defs.items()}
    for name, schema in schemas.items():
        if "title" in schema:
            schema["title"] = name  # generators name classes by title
        tag_constant(schema)
    return [_fixed_tuples(_rename(schema, renames)) for schema in generated], schemas


def _tagged_union(members: dict[str, str], description: str) -> dict[str, Any]:
    """A oneOf of tagged schemas (tag -> component name) with its discriminator."""
    return {
        "description": description,
        "oneOf": [ref(name) for name in dict.fromkeys(members.values())],
        "discriminator": {
            "propertyName": "type",
            "mapping": {tag: REF.format(name=name) for tag, name in sorted(members.items())},
        },
    }


def command_schemas() -> Schemas:
    """``<Variant>Command`` per variant, and ``Command``: every variant's commands by tag.

    Two variants' ``play`` differ (one card, or a combination): the tag maps to
    ``PlayCommand``, a oneOf of both, told apart by their fields (both are closed)."""
    schemas: Schemas = {}
    for variant in VARIANTS.values():
        members = {
            tag_of_type(kind): kind.__name__ for kind in (*COMMON_COMMANDS, *variant.commands)
        }
        schemas[f"{pascal(variant.id)}Command"] = _tagged_union(
            members, f"A command of {variant.name}."
        )
    by_tag: dict[str, list[str]] = {}
    for kind in command_types():
        by_tag.setdefault(tag_of_type(kind), []).append(kind.__name__)
    members = {}
    for tag, names in by_tag.items():
        if len(names) == 1:
            members[tag] = names[0]
        else:
            members[tag] = union_name = f"{pascal(tag)}Command"
            schemas[union_name] = {
                "description": f"`{tag}`: which shape depends on the game's variant.",
                "oneOf": [ref(name) for name in names],
            }
    schemas["Command"] = _tagged_union(
        members,
        "A command; which ones a game accepts depends on its variant (`<Variant>Command`).",
    )
    return schemas


def event_schemas() -> Schemas:
    members = {tag_of_type(kind): kind.__name__ for kind in event_types().values()}
    return {
        "GameEvent": _tagged_union(
            members,
            "An event's payload, by its `type`. Values a perspective may not see yet are"
            " sealed: a `Secret` with its `owner` and a null `value`.",
        )
    }


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"oneOf": [schema, {"type": "null"}]}


Narrowing = Callable[[Variant[Any, Any]], dict[str, Any]]
# The documents that depend on the variant: the field that names it, and the narrower schemas.
PER_VARIANT: dict[str, tuple[str, Callable[[str], str], Narrowing]] = {
    "View": (
        "variant",
        lambda p: f"{p}View",
        lambda v: {
            "table": nullable(ref(f"{pascal(v.id)}Table")),
            "options": ref(v.options_type.__name__),
            "legal_commands": {"type": "array", "items": ref(f"{pascal(v.id)}Command")},
        },
    ),
    "LobbyEntry": (
        "variant",
        lambda p: f"{p}LobbyEntry",
        lambda v: {"options": ref(v.options_type.__name__)},
    ),
    "CreateGame": (
        "variant",
        lambda p: f"Create{p}Game",
        lambda v: {
            "options": {**nullable(ref(v.options_type.__name__)), "default": None},
            "seats": {"type": "integer", "minimum": v.min_seats, "maximum": v.max_seats},
        },
    ),
    "VariantInfo": (
        "id",
        lambda p: f"{p}VariantInfo",
        lambda v: {"options": ref(v.options_type.__name__)},
    ),
}


def split_by_variant(components: Schemas) -> None:
    """Each document of ``PER_VARIANT`` becomes a oneOf of one complete copy per variant,
    discriminated by the field that names the variant."""
    for base, (field, name_of, narrowing) in PER_VARIANT.items():
        if base not in components:
            continue
        generic = components[base]
        mapping = {}
        for variant in VARIANTS.values():
            name = name_of(pascal(variant.id))
            schema = copy.deepcopy(generic)
            schema["title"] = name
            schema["properties"][field] = {"type": "string", "const": variant.id}
            schema["properties"].update(narrowing(variant))
            components[name] = schema
            mapping[variant.id] = REF.format(name=name)
        components[base] = {
            "description": generic.get("description", f"A {base}, by its variant."),
            "oneOf": [{"$ref": target} for target in mapping.values()],
            "discriminator": {"propertyName": field, "mapping": mapping},
        }


def variant_schemas(components: Schemas) -> None:
    """Tables, options, commands and events into the components (``split_by_variant`` then
    puts them into the documents that carry them)."""
    tables = [table_type(variant) for variant in VARIANTS.values()]
    options = [variant.options_type for variant in VARIANTS.values()]
    events = list(event_types().values())
    _, defs = struct_schemas([*tables, *options, *command_types(), *events])
    components.update(defs)
    components.update(command_schemas())
    components.update(event_schemas())
    event_out = components["EventOut"]["properties"]
    event_out["payload"] = ref("GameEvent")
    event_out["type"] = {"type": "string", "enum": sorted(map(tag_of_type, events))}
