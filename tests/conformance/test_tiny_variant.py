"""docs/adding-a-variant.md, followed: High Card (tests/conformance/tiny_variant/) is hosted for
one test at a time, with its test sizes and rules page, and passes what every variant passes:
the conformance suite, the refusal declarations, the rules page conventions, a golden script
that replays and verifies, and a whole game over the HTTP API."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar.testing import TestClient

from domain.commands import Leave, PlayCard
from domain.events import TrickWon
from domain.variants import registered
from projections.audit import audit
from service.application.bundle import read_bundle
from service.http.app import create_app
from service.http.openapi.document import openapi_json
from service.http.routes import rules as rules_pages
from service.settings import Settings
from tests.conformance import test_registry as registry
from tests.conformance.suite import conforming_game
from tests.conformance.test_conformance import SEEDS
from tests.conformance.test_refusals import check_variant_refusals
from tests.conformance.tiny_variant import HighCard
from tests.golden import SCRIPTS, as_bundle, play, render
from tests.rules import test_judgement_calls as pages
from tests.rules.scenario import given, play_out, started
from tests.support.client import SHORT_GAMES

TINY = Path(__file__).parent / "tiny_variant"
SIZES = ("tests/client.py SHORT_GAMES", "tests/golden.py SCRIPTS")
SHARED = "## Judgement calls every variant shares"


@pytest.fixture
def high_card(monkeypatch: pytest.MonkeyPatch) -> Iterator[HighCard]:
    """High Card hosted as the guide says: its registry entry, its test sizes and its rules page
    (which a hosted variant keeps in docs/rules/, where the service and the page tests read)."""
    with registered(HighCard()) as variant:
        monkeypatch.setitem(SHORT_GAMES, variant.id, (3, {}))
        monkeypatch.setitem(SCRIPTS, variant.id, (2, {"hand_size": 2}))
        monkeypatch.setattr(rules_pages, "RULEBOOK", TINY)
        monkeypatch.setattr(pages, "PAGES", TINY)
        assert isinstance(variant, HighCard)
        yield variant


def test_a_hosted_variant_without_test_sizes_is_named_by_the_coverage_test() -> None:
    with registered(HighCard()):
        for where in SIZES:
            with pytest.raises(AssertionError, match=f"{where} has nothing for high-card"):
                registry.test_a_table_kept_per_variant_covers_the_registry(where)


def test_its_test_sizes_cover_it(high_card: HighCard) -> None:
    for where in SIZES:
        registry.test_a_table_kept_per_variant_covers_the_registry(where)


@pytest.mark.parametrize("seed", SEEDS)
def test_it_passes_the_conformance_suite(high_card: HighCard, seed: int) -> None:
    seats, options = SHORT_GAMES[high_card.id]
    conforming_game(high_card.id, seats, options, seed)


def test_it_declares_exactly_the_refusals_it_raises(high_card: HighCard) -> None:
    check_variant_refusals(high_card)


def test_its_rules_page_follows_the_conventions(high_card: HighCard) -> None:
    pages.test_each_variant_has_its_page_under_both_names(high_card.id)
    pages.test_every_option_is_on_the_page(high_card.id)
    pages.test_every_judgement_call_is_named_once_and_cited_by_a_test(high_card.id)
    hosted = (pages.ROOT / "docs" / "rules" / "open-hand.md").read_text(encoding="utf-8")
    assert pages.page(high_card.id).split(SHARED)[1] == hosted.split(SHARED)[1]


def test_its_golden_script_replays_and_verifies(high_card: HighCard) -> None:
    written = render(play(high_card.id))
    assert render(play(high_card.id)) == written
    game_id, events = read_bundle(as_bundle(written))
    assert audit(game_id, events).verdict == "valid"


def test_played_card_of_leaver_cannot_win(high_card: HighCard) -> None:
    """Judgement call ``high-card/played-card-of-leaver-cannot-win``."""
    state = given(started(high_card.id, [("AS", "2C"), ("KS", "3C"), ("QS", "4C")]))
    moves = [(0, PlayCard(card="AS")), (0, Leave()), (1, PlayCard(card="KS"))]
    _, events = play_out(state, [*moves, (2, PlayCard(card="QS"))])
    won = [event for event in events if isinstance(event, TrickWon)]
    assert [(event.seat, event.cards) for event in won] == [(1, ("AS", "KS", "QS"))]


def test_a_whole_game_over_http(high_card: HighCard, tmp_path: Path) -> None:
    # A store file of the test's own: the shared-cache in-memory store (for tools that never
    # persist) answers "table is locked" when a reader and the writer meet, now and then.
    settings = Settings(admin_token="x", data_dir=tmp_path)
    with TestClient(create_app(settings)) as client:
        catalogue = {entry["id"]: entry for entry in client.get("/variants").json()}
        rules_url = catalogue[high_card.id]["rules_url"]
        assert client.get(rules_url).text == (TINY / "high-card.md").read_text(encoding="utf-8")
        assert "HighCardTable" in json.loads(openapi_json(client.app))["components"]["schemas"]

        tokens = [client.post("/players", json={"name": f"P{n}"}).json()["token"] for n in range(3)]
        auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
        created = client.post("/games", json={"variant": high_card.id, "seats": 3}, headers=auth[0])
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        for seat in (1, 2):
            joined = client.post(f"/games/{game_id}/join", headers=auth[seat])
            assert joined.status_code == 200, joined.text
        for _ in range(3):
            public = client.get(f"/games/{game_id}").json()
            seat = public["to_act"][0]
            mine = client.get(f"/games/{game_id}/view", headers=auth[seat]).json()
            plays = [c for c in mine["legal_commands"] if c["type"] == "play"]
            sent = client.post(f"/games/{game_id}/commands", json=plays[0], headers=auth[seat])
            assert sent.status_code == 200, sent.text

        summary = client.get(f"/games/{game_id}").json()
        assert (summary["status"], len(summary["winners"])) == ("finished", 1)
        assert client.get(f"/games/{game_id}/audit").json()["verdict"] == "valid"
