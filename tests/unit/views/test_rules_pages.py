"""The rules pages and the variant catalogue: native names, links, Markdown served as shipped."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from domain.variants import VARIANTS
from service.application import Cardledger
from service.http.app import create_app
from service.http.routes.rules import RULEBOOK
from service.settings import NO_LIMITS, Settings

DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules"
NATIVE = {
    "heartbeat": "心跳",
    "double-heartbeat": "双倍心跳",
    "open-hand": "打扑克不盖被",
    "cancellation-hearts": "Cancellation Hearts",
    "one-up-one-down": "一上一下",
}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient[Any]]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("rules"), limits=NO_LIMITS)
    with TestClient(create_app(settings, Cardledger(settings))) as test_client:
        yield test_client


def test_the_catalogue_gives_native_names_and_rules_links(client: TestClient[Any]) -> None:
    catalogue = {v["id"]: v for v in client.get("/variants").json()}
    assert {vid: v["native_name"] for vid, v in catalogue.items()} == NATIVE
    for variant_id, entry in catalogue.items():
        assert entry["rules_url"] == f"/rules/{variant_id}"
        assert entry["name"] == VARIANTS[variant_id].name


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_rules_page_is_served_as_markdown(client: TestClient[Any], variant: str) -> None:
    response = client.get(f"/rules/{variant}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/markdown")
    assert response.content == (DOCS / f"{variant}.md").read_bytes()


def test_an_unknown_variant_has_no_rules_page(client: TestClient[Any]) -> None:
    response = client.get("/rules/chess")
    assert response.status_code == 404
    assert response.json()["code"] == "variant_not_found"


def test_the_pages_ship_with_the_package() -> None:
    """service/http/rulebook is docs/rules (package data: pyproject.toml, docker/Dockerfile)."""
    assert RULEBOOK.resolve() == DOCS.resolve()
    assert sorted(p.name for p in RULEBOOK.glob("*.md")) == sorted(f"{v}.md" for v in VARIANTS)
    pyproject = (DOCS.parents[1] / "pyproject.toml").read_text()
    assert '"rulebook/*.md"' in pyproject
    dockerfile = (DOCS.parents[1] / "docker" / "Dockerfile").read_text()
    assert "COPY docs/rules ./docs/rules" in dockerfile
