"""The replay viewer in headless Chromium (Debian's), against a real running server."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from service.settings import Settings
from service.tools.simulate import Table
from tests.client import SHORT_GAMES
from tests.servers import running_server

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="module")
def site(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, dict[str, str], Table]]:
    """A server with one finished game of every variant and one Open Hand game in play."""
    directory = tmp_path_factory.mktemp("viewer")
    settings = Settings(data_dir=directory, admin_token="viewer-admin")
    with (
        running_server(settings, directory) as base,
        httpx.Client(base_url=base, timeout=20) as http,
    ):
        finished = {}
        rng = random.Random(8)
        for variant, (seats, options) in SHORT_GAMES.items():
            table = Table(http, variant, seats, options)
            while table.step(rng):
                pass
            finished[variant] = table.game_id
        active = Table(http, "open-hand", 3, {})
        yield base, finished, active


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make browser` installs Debian's chromium")
    args = [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def test_the_lobby_lists_games_by_status(site, page: Page) -> None:
    base, finished, active = site
    page.goto(f"{base}/")
    for game_id in finished.values():
        expect(page.locator(f"#finished tr[data-game-id='{game_id}']")).to_be_visible()
    expect(page.locator(f"#active tr[data-game-id='{active.game_id}']")).to_contain_text(
        "watch live"
    )
    expect(page.locator("#leaderboard h3").first).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lobby.png"), full_page=True)


@pytest.mark.parametrize("variant", sorted(SHORT_GAMES))
def test_a_finished_game_steps_to_the_scoreboard(site, page: Page, variant: str) -> None:
    base, finished, _ = site
    game_id = finished[variant]
    board = httpx.get(f"{base}/games/{game_id}/scoreboard").json()
    head = httpx.get(f"{base}/games/{game_id}").json()["version"]
    page.goto(f"{base}/games/{game_id}/watch")
    expect(page.locator("#head")).to_have_text(str(head))
    page.keyboard.press("Home")
    expect(page.locator("#version")).to_have_text("1")
    expect(page.locator("#description")).to_contain_text("game created")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#version")).to_have_text("2")
    page.click("#last")
    expect(page.locator("#version")).to_have_text(str(head))
    scores = page.locator(".seat .score").evaluate_all(
        "els => els.map(e => Number(e.dataset.score))"
    )
    assert scores == board["totals"]
    expect(page.locator("#verdict")).to_have_text("— valid")
    page.select_option("#perspective", "full")
    expect(page.locator("#version")).to_have_text(str(head))
    ARTIFACTS.mkdir(exist_ok=True)
    page.click("#first")
    middle = max(1, head * 2 // 3)
    page.locator("#slider").fill(str(middle))
    expect(page.locator("#version")).to_have_text(str(middle))
    page.screenshot(path=str(ARTIFACTS / f"{variant}.png"), full_page=True)


def face_up_seats(page: Page) -> list[int]:
    script = """els => els
        .filter(e => e.querySelector('.hand .card:not(.back)'))
        .map(e => Number(e.dataset.seat))"""
    seats = page.locator(".seat").evaluate_all(script)
    return list(seats)


def test_hidden_cards_show_only_where_the_perspective_allows(site, page: Page) -> None:
    base, _, active = site
    page.goto(f"{base}/games/{active.game_id}/watch")
    expect(page.locator(".seat")).to_have_count(3)
    assert face_up_seats(page) == []
    page.fill("#token", active.tokens[1])
    page.locator("#token").dispatch_event("change")
    page.select_option("#perspective", "seat:1")
    expect(page.locator(".seat[data-seat='1'] .hand .card:not(.back)")).to_have_count(5)
    assert face_up_seats(page) == [1]
    page.select_option("#perspective", "seat:2")
    expect(page.locator("#notice")).to_contain_text("player")
    expect(page.locator("#perspective")).to_have_value("public")
    assert face_up_seats(page) == []
    page.select_option("#perspective", "full")
    expect(page.locator("#notice")).to_contain_text("full perspective")


def test_live_mode_follows_a_bot_game(site, page: Page) -> None:
    base, _, active = site
    page.goto(f"{base}/games/{active.game_id}/watch")
    expect(page.locator("#live")).to_be_checked()
    rng = random.Random(3)

    def play() -> None:
        while active.step(rng):
            pass

    thread = threading.Thread(target=play)
    thread.start()
    thread.join(60)
    head = httpx.get(f"{base}/games/{active.game_id}").json()["version"]
    expect(page.locator("#version")).to_have_text(str(head), timeout=15_000)
    expect(page.locator("#status")).to_contain_text("finished")
    expect(page.locator("#verdict")).to_have_text("— valid")
    page.screenshot(path=str(ARTIFACTS / "live-finished.png"), full_page=True)
