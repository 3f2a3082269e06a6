"""docs/rules/: a page per variant, every option on it, every judgement call cited by a test.

A judgement call is written ``**`variant/name`**`` on a page (``common/...`` for the ones every
variant shares); a test cites it by that name, in its name or docstring.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "docs" / "rules"
CALL = re.compile(r"\*\*`((?:[a-z-]+)/[a-z0-9-]+)`\*\*")


def page(variant: str) -> str:
    return (PAGES / f"{variant}.md").read_text(encoding="utf-8")


def calls(text: str) -> list[str]:
    return CALL.findall(text)


def every_test_source() -> str:
    here = Path(__file__).resolve()
    return "\n".join(
        path.read_text(encoding="utf-8")
        for path in (ROOT / "tests").rglob("*.py")
        if path.resolve() != here
    )


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_variant_has_its_page_under_both_names(variant: str) -> None:
    rules = VARIANTS[variant]
    first_line = page(variant).splitlines()[0]
    assert rules.name in first_line and rules.native_name in first_line
    assert f"`{variant}`" in first_line
    assert rules.rules_url == f"/rules/{variant}"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_option_is_on_the_page(variant: str) -> None:
    text = page(variant)
    for option in VARIANTS[variant].options_type.__struct_fields__:
        assert f"`{option}`" in text, f"{variant}: option {option} is not documented"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_judgement_call_is_named_once_and_cited_by_a_test(variant: str) -> None:
    names = calls(page(variant))
    own = [name for name in names if not name.startswith("common/")]
    assert own, f"{variant} documents no judgement call"
    assert all(name.startswith(f"{variant}/") for name in own), own
    assert len(set(names)) == len(names), f"{variant}: a judgement call is named twice"
    cited = every_test_source()
    missing = [name for name in names if name not in cited]
    assert not missing, f"no test cites {missing}"


def test_the_shared_judgement_calls_read_the_same_on_every_page() -> None:
    shared = {
        variant: page(variant).split("## Judgement calls every variant shares", 1)[1]
        for variant in VARIANTS
    }
    assert len(set(shared.values())) == 1
