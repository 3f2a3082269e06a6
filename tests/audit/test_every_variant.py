"""A finished game of each variant exports, verifies offline, and is caught when tampered with."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from service.application import Cardledger
from service.http.app import create_app
from service.settings import NO_LIMITS, Settings
from service.tools.cli import main
from service.tools.simulate import Table
from tests.audit.test_verify import rehash
from tests.support.client import SHORT_GAMES

CARD = re.compile(r"^(10|[2-9JQKA])[SHDC]$")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient[Any]]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("variants"), limits=NO_LIMITS)
    ledger = Cardledger(settings)
    with TestClient(create_app(settings, ledger)) as test_client:
        yield test_client


def verify(tmp_path: Path, bundle: dict[str, Any]) -> tuple[int, str]:
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle))
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        code = main(["verify", str(path)])
    return code, output.getvalue()


def first_card(value: Any) -> tuple[list[Any] | dict[str, Any], Any] | None:
    """The container and key of the first public card code in an event payload."""
    if isinstance(value, dict):
        if set(value) == {"owner", "value", "salt"}:
            return None
        for key, item in value.items():
            if isinstance(item, str) and CARD.match(item):
                return value, key
            found = first_card(item)
            if found:
                return found
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, str) and CARD.match(item):
                return value, index
            found = first_card(item)
            if found:
                return found
    return None


@pytest.mark.parametrize("variant", sorted(SHORT_GAMES))
def test_export_verify_and_catch_tampering(
    client: TestClient[Any], tmp_path: Path, variant: str
) -> None:
    seats, options = SHORT_GAMES[variant]
    table = Table(client, variant, seats, options)
    rng = random.Random(variant)
    while table.step(rng):
        pass
    bundle = client.get(f"/games/{table.game_id}/export").json()
    code, output = verify(tmp_path, bundle)
    assert code == 0, output

    flipped = copy.deepcopy(bundle)
    index, (container, key) = next(
        (i, found)
        for i, event in enumerate(flipped["events"])
        if (found := first_card(event["payload"]))
    )
    container[key] = "2S" if container[key] != "2S" else "3S"
    code, output = verify(tmp_path, flipped)
    assert code == 1
    assert f"FAIL     chain: event {index + 1} was altered" in output

    rescored = copy.deepcopy(bundle)
    final = rescored["events"][-1]["payload"]
    assert rescored["events"][-1]["type"] == "GameFinished"
    final["scores"] = [final["scores"][0] + 1, *final["scores"][1:]]
    code, output = verify(tmp_path, rehash(rescored))
    assert code == 1 and "FAIL     scores" in output and "FAIL     chain" not in output
