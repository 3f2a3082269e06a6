"""What the document's schemas reach: components nothing refers to are dropped, and those only
answers refer to list every field they always carry as required.

msgspec marks a field with a default as optional, which is true of a request body but not of
an answer: an answer's Struct is encoded with every field (unless it omits its defaults), so a
generated client need not treat any of them as possibly absent.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from service.http.openapi.variants import REF

REF_PREFIX = REF.format(name="")


def reached(components: dict[str, Any], roots: Iterable[Any]) -> set[str]:
    """The names of the components ``roots`` refer to, directly or through others."""
    found: set[str] = set()
    pending = list(roots)
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            target = value.get("$ref")
            if isinstance(target, str) and target.startswith(REF_PREFIX):
                name = target.removeprefix(REF_PREFIX)
                if name not in found:
                    found.add(name)
                    pending.append(components[name])
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return found


def drop_unreferenced(schema: dict[str, Any]) -> None:
    """Drop the components nothing refers to any more: litestar's own schemas of what is
    refined here (the ``Any``-typed base ``Event``, ``Secret[Any]``)."""
    components = schema["components"]["schemas"]
    for name in set(components) - reached(components, [schema["paths"]]):
        del components[name]


def require_what_answers_carry(schema: dict[str, Any], omitting: set[str]) -> None:
    """Every field of a closed object that only answers carry is required, but for those of
    the Structs in ``omitting`` (which leave out a field holding its default): there a field
    with a default may be absent, and absent means the default, as its description says."""
    components = schema["components"]["schemas"]
    operations = [op for item in schema["paths"].values() for op in item.values()]
    bodies = [op["requestBody"] for op in operations if "requestBody" in op]
    answers = [op.get("responses", {}) for op in operations]
    answer_only = reached(components, answers) - reached(components, bodies)
    for name in sorted(answer_only):
        component = components[name]
        if component.get("additionalProperties") is not False or "properties" not in component:
            continue  # not a Struct's: which members it carries is not fixed
        properties = component["properties"]
        if name not in omitting:
            component["required"] = sorted(properties)
            continue
        optional = set(properties) - set(component.get("required", []))
        for field in [f for f in sorted(optional) if "default" in properties[f]]:
            default = json.dumps(properties[field].pop("default"))
            described = properties[field].get("description", "")
            properties[field]["description"] = f"{described} Absent: `{default}`.".strip()
