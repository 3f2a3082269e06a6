"""The lobby: native names, a page of games at a time by the Link to the next one, no reload
of everything."""

from __future__ import annotations

import random

import httpx
from playwright.sync_api import Page, Request, expect

from tests.browser.conftest import screenshot
from tests.browser.players import Game, finished_heartbeat


def test_the_lobby_pages_through_games_with_native_names(
    base: str, http: httpx.Client, page: Page
) -> None:
    finished = finished_heartbeat(http, 1)
    for _ in range(16):  # more than one page of waiting games
        body = {"variant": "one-up-one-down", "seats": 2}
        http.post("/games", json=body, headers=finished.auth(1)).raise_for_status()
    requests: list[str] = []

    def seen(request: Request) -> None:
        requests.append(request.url.removeprefix(base))

    page.on("request", seen)
    page.goto(f"{base}/")
    rows = page.locator("#games tbody tr")
    expect(rows).to_have_count(15)
    first_page = rows.evaluate_all("rows => rows.map(r => r.dataset.gameId)")
    expect(page.locator("#games")).to_contain_text("一上一下")
    expect(page.locator("#variants")).to_contain_text("双倍心跳")
    expect(page.locator("#variants")).to_contain_text("打扑克不盖被")
    expect(page.locator("#leaderboard")).to_be_visible()
    page.click("#older")
    expect(page.locator("#page-label")).to_have_text("page 2")
    expect(page.locator("#newer")).to_be_enabled()
    second_page = rows.evaluate_all("rows => rows.map(r => r.dataset.gameId)")
    assert second_page and not set(second_page) & set(first_page)
    # A game created now is newer than every page: page 2 stays as it is, page 1 shows it.
    newest = http.post("/games", json=body, headers=finished.auth(1)).json()["game_id"]
    page.evaluate("document.querySelector('#games table').dataset.drawn = 'before'")
    page.click("#reload")
    expect(page.locator("#games table[data-drawn]")).to_have_count(0)  # the refresh drew anew
    assert rows.evaluate_all("rows => rows.map(r => r.dataset.gameId)") == second_page
    page.click("#newer")
    expect(page.locator("#page-label")).to_have_text("page 1")
    expect(page.locator("#newer")).to_be_disabled()
    expect(rows.first).to_have_attribute("data-game-id", newest)
    page.click("#status-tabs button[data-status=finished]")
    expect(page.locator(f"#games tr[data-game-id='{finished.game_id}']")).to_contain_text("心跳")
    expect(page.locator(f"#games tr[data-game-id='{finished.game_id}'] a")).to_have_text("replay")
    screenshot(page, "lobby")
    lobby_reads = [url for url in requests if url.startswith("/games?")]
    assert lobby_reads and all("limit=15" in url for url in lobby_reads)
    assert any("cursor=" in url for url in lobby_reads)  # page 2 is where page 1's Link said
    assert len([url for url in requests if url.startswith("/leaderboard")]) == 1
    assert page.evaluate("document.querySelector('link[rel=icon]').href").endswith("favicon.svg")
    assert http.get("/favicon.ico").status_code == 200


def test_a_phone_lists_each_game_with_its_link_in_view(
    base: str, http: httpx.Client, phone: Page
) -> None:
    """At 390 px every game is a card: its name, players, state and the link to watch it, with
    nothing to scroll sideways for."""
    game = Game(http, "cancellation-hearts", 11, {"target": 50})
    game.play(random.Random(2), steps=3)
    phone.goto(f"{base}/")
    row = phone.locator(f"#games tr[data-game-id='{game.game_id}']")
    link = row.locator("a")
    expect(link).to_have_text("watch live")
    box = link.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    expect(row).to_contain_text("11/11")
    assert phone.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    screenshot(phone, "lobby-phone")
