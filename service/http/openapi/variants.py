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
from domain.events import Secret, tag_of_type
from domain.perspective import PUBLIC
from domain.variant import Variant
from domain.variants import VARIANTS, event_types
from projections.events import EventOut

REF = "#/components/schemas/{name}"
FORM_FIELD = "cards"  # the list a choice form completes (domain.choices.choice)
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
    can turn into a class name (without the ``typing.`` of a ``Literal`` argument)."""
    return re.sub(r"[^A-Za-z0-9]+", "_", name.replace("typing.", "")).strip("_")


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


JSON_TYPES = {str: "string", bool: "boolean", int: "integer", float: "number", type(None): "null"}


def _typed_enums(value: Any) -> Any:
    """msgspec writes a ``Literal`` as a bare ``enum``: say its type too, which generators need
    to type the field (an enum of mixed types lists each)."""
    if isinstance(value, list):
        return [_typed_enums(item) for item in value]
    if not isinstance(value, dict):
        return value
    value = {key: _typed_enums(item) for key, item in value.items()}
    if isinstance(value.get("enum"), list) and "type" not in value:
        kinds = sorted({JSON_TYPES[type(item)] for item in value["enum"]})
        value["type"] = kinds[0] if len(kinds) == 1 else kinds
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
    schemas = {renames[name]: _readable(_rename(s, renames)) for name, s in defs.items()}
    for name, schema in schemas.items():
        if "title" in schema:
            schema["title"] = name  # generators name classes by title
        tag_constant(schema)
    return [_readable(_rename(schema, renames)) for schema in generated], schemas


def _readable(schema: Any) -> Any:
    return _typed_enums(_fixed_tuples(schema))


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
    """``<Variant>Command`` per variant, told apart by ``type``, and ``Command``: any of them.

    ``Command`` has no discriminator: two variants' ``play`` differ (one card, or a
    combination), and a tag names one schema. Every command is a closed object, so its
    fields tell the two apart."""
    schemas: Schemas = {}
    for variant in VARIANTS.values():
        members = {
            tag_of_type(kind): kind.__name__ for kind in (*COMMON_COMMANDS, *variant.commands)
        }
        schemas[f"{pascal(variant.id)}Command"] = _tagged_union(
            members, f"A command of {variant.name}."
        )
    schemas["Command"] = {
        "description": "A command of any variant (a game takes those of its `<Variant>Command`)."
        " One `type` may have a shape per variant (`play`: one card, or a combination); each"
        " shape is a closed object, told apart by its fields.",
        "oneOf": [ref(kind.__name__) for kind in command_types()],
    }
    return schemas


def form_commands(variant: Variant[Any, Any] | None = None) -> list[type[Command]]:
    """The commands a choice form can stand for: those with the list it completes."""
    kinds = command_types() if variant is None else list(variant.commands)
    return [kind for kind in kinds if FORM_FIELD in kind.__struct_fields__]


def choice_command_schemas(components: Schemas) -> Schemas:
    """``ChoiceCommand``: what a choice form's ``command`` may be. Its ``cards`` hold only the
    cards fixed in advance, so a command whose cards have a lower bound gets a ``Partial``
    copy without it."""
    schemas: Schemas = {}
    members: dict[str, str] = {}
    for kind in form_commands():
        name = kind.__name__
        if components[name]["properties"][FORM_FIELD].get("minItems"):
            partial = copy.deepcopy(components[name])
            del partial["properties"][FORM_FIELD]["minItems"]
            name = partial["title"] = f"Partial{name}"
            partial["description"] = f"A `{kind.__name__}` before its cards are chosen."
            schemas[name] = partial
        tag = tag_of_type(kind)
        if tag in members:
            raise ValueError(f"two commands a choice form completes are tagged {tag!r}")
        members[tag] = name
    schemas["ChoiceCommand"] = _tagged_union(
        members,
        "The command a choice form completes: its `type` and every field but the chosen"
        " cards; `cards` holds those fixed in advance (often none).",
    )
    return schemas


def sealed_command_schema() -> dict[str, Any]:
    """The command that caused a batch of events, sealed for its seat like any secret."""
    _, defs = struct_schemas([Secret[Any]])
    schema: dict[str, Any] = next(iter(defs.values()))
    schema["title"] = "SealedCommand"
    schema["description"] = (
        "The seat's command that caused this batch of events, sealed for that seat (hashed"
        " with its salt); `value` is null for a perspective that may not see it yet."
    )
    schema["properties"]["value"] = {**nullable(ref("Command")), "default": None}
    return schema


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


def seat_count(variant: Variant[Any, Any]) -> dict[str, Any]:
    return {"type": "integer", "minimum": variant.min_seats, "maximum": variant.max_seats}


def tags(kinds: Iterable[type[msgspec.Struct]]) -> dict[str, Any]:
    """An array's items: the tags of these kinds (none: the array is always empty)."""
    found = sorted({tag_of_type(kind) for kind in kinds})
    if not found:
        return {"items": {"type": "string"}, "maxItems": 0}
    return {"items": {"type": "string", "enum": found}}


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
            "choice_forms": {
                "type": "array",
                "items": ref("Choice"),
                **({} if form_commands(v) else {"maxItems": 0}),
            },
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
            "seats": seat_count(v),
        },
    ),
    "JoinQueue": (
        "variant",
        lambda p: f"Join{p}Queue",
        lambda v: {
            "options": {**nullable(ref(v.options_type.__name__)), "default": None},
            "min_seats": {**nullable(seat_count(v)), "default": None},
            "max_seats": {**nullable(seat_count(v)), "default": None},
        },
    ),
    "QueueStatus": (
        "variant",
        lambda p: f"{p}QueueStatus",
        lambda v: {
            "options": nullable(ref(v.options_type.__name__)),
            "min_seats": nullable(seat_count(v)),
            "max_seats": nullable(seat_count(v)),
        },
    ),
    "VariantInfo": (
        "id",
        lambda p: f"{p}VariantInfo",
        lambda v: {
            "options": ref(v.options_type.__name__),
            "commands": {"type": "array", **tags([*COMMON_COMMANDS, *v.commands])},
        },
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


def variant_types() -> list[type[msgspec.Struct]]:
    """Every variant's tables, options, commands and events."""
    tables = [table_type(variant) for variant in VARIANTS.values()]
    options = [variant.options_type for variant in VARIANTS.values()]
    return [*tables, *options, *command_types(), *event_types().values()]


def omitting_defaults() -> set[str]:
    """The components of the Structs that leave a field out when it holds its default."""
    kinds: list[type[msgspec.Struct]] = [*variant_types(), EventOut]
    return {kind.__name__ for kind in kinds if kind.__struct_config__.omit_defaults}


def variant_schemas(components: Schemas) -> None:
    """Tables, options, commands and events into the components (``split_by_variant`` then
    puts them into the documents that carry them)."""
    events = list(event_types().values())
    _, defs = struct_schemas(variant_types())
    components.update(defs)
    components.update(command_schemas())
    components.update(choice_command_schemas(components))
    components["SealedCommand"] = sealed_command_schema()
    components.update(event_schemas())
    event_out = components["EventOut"]["properties"]
    event_out["command"] = nullable(ref("SealedCommand"))
    components["GameCreated"]["properties"]["options"]["description"] = (
        "The `<Variant>Options` of the game's `variant` (one schema serves every variant's"
        " events, and options carry no tag to tell the variants' apart)."
    )
    event_out["payload"] = ref("GameEvent")
    event_out["type"] = {"type": "string", "enum": sorted(map(tag_of_type, events))}
