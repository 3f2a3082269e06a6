"""Ratings in the viewer (issue 24): each seat's rating beside its name in a game's scores, a
player's page with their rating and history, and the lobby's leaderboard by rating."""

from __future__ import annotations

import httpx
from playwright.sync_api import Page, Route, expect

from tests.browser.conftest import screenshot
from tests.browser.players import finished_heartbeat
from tests.support.threads import wait_until


def test_ratings_show_in_the_game_the_players_page_and_the_leaderboard(
    base: str, http: httpx.Client, page: Page
) -> None:
    game = finished_heartbeat(http, 24)
    seats = game.public()["seats"]
    profiles = [http.get(f"/players/{seat['player_id']}").json() for seat in seats]
    [rating] = profiles[0]["ratings"]
    shown = f"{rating['rating']:.1f} ± {rating['uncertainty']:.1f}"

    page.goto(f"{base}/games/{game.game_id}/watch")
    first = page.locator("#scoreboard tr[data-seat='0']")
    expect(first.locator("td.rating")).to_have_text(shown)
    expect(page.locator("#scoreboard tr[data-seat='1'] td.rating")).to_contain_text("±")
    screenshot(page, "ratings-watch")

    first.locator("th.name a").click()
    expect(page).to_have_url(f"{base}/players/{seats[0]['player_id']}/page")
    expect(page.locator("#title")).to_have_text(profiles[0]["name"])
    expect(page.locator("#ratings td.rating")).to_have_text(
        f"{rating['rating']:.2f} ± {rating['uncertainty']:.2f}"
    )
    history = page.locator("#history tbody tr")
    expect(history).to_have_count(1)
    expect(history.first.locator("a")).to_have_text(game.game_id[:8])
    expect(history.first).to_contain_text("25.00 ± 8.33")  # the rating before a first game

    page.goto(f"{base}/")
    page.select_option("#board-variant", "heartbeat")
    page.select_option("#board-sort", "rating")
    rows = page.locator("#leaderboard tbody tr")
    expect(rows.first.locator("td.rating")).to_contain_text("±")
    best = http.get("/leaderboard?variant=heartbeat&sort=rating&limit=1").json()[0]["rows"][0]
    expect(rows.first.locator("a")).to_have_text(best["name"])


def test_the_leaderboard_shows_the_board_chosen_last_whatever_order_the_answers_come_in(
    base: str, http: httpx.Client, page: Page
) -> None:
    finished_heartbeat(http, 25)
    wait_until(
        lambda: http.get("/leaderboard?variant=heartbeat").json()[0]["rows"],
        "a heartbeat board with someone on it",
    )

    page.goto(f"{base}/")
    expect(page.locator("#leaderboard table, #leaderboard p").first).to_be_visible()
    other = next(
        value
        for value in page.locator("#board-variant option").evaluate_all(
            "os => os.map(o => o.value)"
        )
        if value not in ("heartbeat", page.locator("#board-variant").input_value())
    )
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route(f"**/leaderboard?variant={other}&*", hold)
    page.select_option("#board-variant", other)  # its answer is held back...
    with page.expect_response("**/leaderboard?variant=heartbeat&*") as answered:
        page.select_option("#board-variant", "heartbeat")  # ...while this one comes
    rows = answered.value.json()[0]["rows"]
    chosen = [f"/players/{row['player_id']}/page" for row in rows]
    links = page.locator("#leaderboard tbody tr a")
    expect(links).to_have_count(len(chosen))
    for index, href in enumerate(chosen):  # drawn from the answer to the last choice
        expect(links.nth(index)).to_have_attribute("href", href)
    assert len(held) == 1
    with page.expect_response(f"**/leaderboard?variant={other}&*"):
        held[0].continue_()
    page.evaluate("() => new Promise((done) => setTimeout(done, 200))")  # its answer handled
    assert [link.get_attribute("href") for link in links.all()] == chosen, "an older answer shown"
