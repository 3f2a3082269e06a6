"""The viewer knows each variant through one table module,
service/http/static/table/variants/<id>.js, listed in table/table-modules.js: every variant the
service hosts has one, each of its events is worded there or among the shared events of
watch/events.js, and what the pages name of the server (event types, command types, problem
codes, packaged files) exists on the server."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

import domain.events
from domain.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[3]
STATIC = ROOT / "service" / "http" / "static"
VARIANT_MODULES = STATIC / "table" / "variants"


def tag(struct: type) -> str:
    return str(struct.__struct_config__.tag)  # type: ignore[attr-defined]


def block(source: str, opening: str) -> str:
    """The text from ``opening`` to the line that closes its top-level block ("" if absent)."""
    if opening not in source:
        return ""
    start = source.index(opening)
    return source[start : source.index("\n}", start)]


def described(source: str, function: str = "export function describe(") -> set[str]:
    """The event types a function of a module (its ``describe``) has a sentence for."""
    return set(re.findall(r'case "(\w+)":', block(source, function)))


def move_words(source: str) -> set[str]:
    """The command types a module's ``moves`` has words for."""
    return set(re.findall(r"^  (\w+): ", block(source, "export const moves = {"), re.M))


def registered(source: str) -> set[str]:
    """The variant ids table-modules.js both imports a module for and lists."""
    imported = set(re.findall(r'^import \* as \w+ from "\./variants/([\w-]+)\.js";$', source, re.M))
    listed = set(re.findall(r'^  "([\w-]+)": \w+,$', block(source, "TABLE_MODULES = {"), re.M))
    return imported & listed


SHARED_EVENTS = {
    tag(kind)
    for kind in vars(domain.events).values()
    if isinstance(kind, type) and issubclass(kind, domain.events.Event)
    if kind is not domain.events.Event
}
EVENTS_JS = described((STATIC / "watch" / "events.js").read_text(), "function shared(")
REGISTERED = registered((STATIC / "table" / "table-modules.js").read_text())


def test_events_js_words_the_shared_events_only() -> None:
    assert EVENTS_JS <= SHARED_EVENTS, f"not in domain/events.py: {EVENTS_JS - SHARED_EVENTS}"
    lifecycle = {tag(kind) for kind in domain.events.LIFECYCLE_EVENTS}
    assert lifecycle <= EVENTS_JS, f"lifecycle events without words: {lifecycle - EVENTS_JS}"


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_every_variant_has_a_table_module_in_the_registry(variant_id: str) -> None:
    module = VARIANT_MODULES / f"{variant_id}.js"
    assert module.is_file(), f"{variant_id} has no table module {module.relative_to(ROOT)}"
    assert variant_id in REGISTERED, f"table-modules.js does not import and list {variant_id}"


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_a_variants_module_words_its_own_events_and_commands(variant_id: str) -> None:
    variant = VARIANTS[variant_id]
    source = (VARIANT_MODULES / f"{variant_id}.js").read_text()
    events = {tag(kind) for kind in variant.events}
    own = described(source)
    assert own <= events, f"{variant_id}.js words events {variant_id} has not: {own - events}"
    unworded = events - own - EVENTS_JS
    assert not unworded, f"{variant_id}'s events nobody words: {sorted(unworded)}"
    commands = {tag(kind) for kind in variant.commands}
    stale = move_words(source) - commands
    assert not stale, f"{variant_id}.js has words for commands {variant_id} has not: {stale}"


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_a_variants_module_names_how_its_games_end(variant_id: str) -> None:
    """A game that ended by the variant's own rules says how (table/parts/ending.js asks the
    module); without ``ending`` it would only say that it reached its end."""
    source = (VARIANT_MODULES / f"{variant_id}.js").read_text()
    assert "export function ending(" in source, f"{variant_id}.js does not word its own end"


def test_the_problem_codes_the_pages_compare_exist() -> None:
    document = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    codes = set(document["components"]["schemas"]["ProblemCode"]["enum"])
    named = {
        (path.name, code)
        for path in STATIC.rglob("*.js")
        for code in re.findall(r'\.code === "(\w+)"', path.read_text())
    }
    assert named, "no page compares a problem code: the test reads them wrongly"
    assert not {(name, code) for name, code in named if code not in codes}


def test_every_file_of_the_viewer_is_packaged() -> None:
    """A file the package data leaves out is missing from a built image (pip install .)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["service.http"]
    packaged = {path for pattern in patterns for path in STATIC.parent.glob(pattern)}
    left_out = {path for path in STATIC.rglob("*") if path.is_file()} - packaged
    assert not left_out, f"not in pyproject.toml's package data: {sorted(map(str, left_out))}"
