"""Every refusal code the domain can raise is declared with its kind of failure, and nothing
else is: per variant (``Variant.refusals``) and per shared module (its ``REFUSALS``)."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from typing import Any

import pytest

from domain.errors import Failure
from domain.variant import Variant
from domain.variants import VARIANTS
from tests.conformance.refusals import difference, raised_in, shared_modules


def check_variant_refusals(variant: Variant[Any, Any]) -> None:
    package = Path(inspect.getfile(type(variant))).parent
    raised = raised_in(sorted(package.glob("*.py")), variant.id)
    problems = difference(getattr(variant, "refusals", {}), raised)
    assert not problems, f"{variant.id} ({package}): " + "; ".join(problems)


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=lambda v: v.id)
def test_a_variant_declares_exactly_the_refusals_its_rules_raise(
    variant: Variant[Any, Any],
) -> None:
    check_variant_refusals(variant)


@pytest.mark.parametrize("module", sorted(shared_modules()))
def test_a_shared_module_declares_exactly_the_refusals_it_raises(module: str) -> None:
    path = shared_modules()[module]
    raised = raised_in([path], module)
    declared = getattr(importlib.import_module(module), "REFUSALS", {})
    problems = difference(declared, raised)
    assert not problems, f"{module}: " + "; ".join(problems)


def test_the_check_catches_an_undeclared_a_stale_and_a_mistyped_code() -> None:
    raised = {"a": Failure.CONFLICT, "b": Failure.INVALID}
    declared = {"b": Failure.CONFLICT, "c": Failure.CONFLICT}
    assert difference(declared, raised) == [
        "a (CONFLICT) is raised but not declared",
        "c is declared but never raised",
        "b is declared CONFLICT but raised INVALID",
    ]


def test_the_scan_reads_every_way_a_refusal_is_made(tmp_path: Path) -> None:
    source = tmp_path / "rules.py"
    source.write_text(
        "from domain.cards import check_card_code\n"
        "def f():\n"
        "    if x: raise RuleViolation('plain', 'm')\n"
        "    if y: raise RuleViolation('forbidden_one', 'm', Failure.FORBIDDEN)\n"
        "    if z: raise invalid(code='bad_input', message='m')\n"
        "    return forbidden('returned', 'm')\n"
    )
    assert raised_in([source], "example") == {
        "plain": Failure.CONFLICT,
        "forbidden_one": Failure.FORBIDDEN,
        "bad_input": Failure.INVALID,
        "returned": Failure.FORBIDDEN,
        "unknown_card": Failure.INVALID,  # through the shared helper it imports
    }


def test_a_code_the_scan_cannot_read_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "rules.py"
    source.write_text("def f(code):\n    raise invalid(code, 'm')\n")
    with pytest.raises(AssertionError, match="must be a literal"):
        raised_in([source], "example")
