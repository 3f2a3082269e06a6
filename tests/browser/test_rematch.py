"""Quick match from the lobby, rematch in the viewer and the lobby (issue 24): two people who
ask the lobby for the same table are seated together and each lands on the game's page with
their seat; a finished game's page offers the rematch to its players, links the new game once
made, and moves a page left at the last event to it; the lobby links it from the old game."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Console, new_page, screenshot
from tests.browser.players import finished_heartbeat

WATCH = re.compile(r"/games/([0-9a-f-]{36})/watch")  # the page adds its perspective


@pytest.fixture
def second_page(browser: Browser, console: Console) -> Iterator[Page]:
    """Another person's browser: its own session storage, so its own player."""
    yield from new_page(browser, console, 1280, 900)


def game_of(page: Page) -> str:
    found = WATCH.search(page.url)
    assert found is not None, page.url
    return found.group(1)


def ask_for_a_table(page: Page, base: str, name: str, wait: str) -> None:
    page.goto(f"{base}/")
    page.fill("#quick-name", name)
    page.select_option("#quick-variant", "heartbeat")
    page.fill("#quick-seats", "2")
    page.fill("#quick-wait", wait)
    page.click("#quick-join")


def test_two_people_asking_the_lobby_for_a_table_are_seated_together(
    base: str, page: Page, second_page: Page
) -> None:
    ask_for_a_table(page, base, "Ann", "")  # people only: Ann waits
    expect(page.locator("#quick-message")).to_contain_text("Waiting for a table")
    expect(page.locator("#quick-leave")).to_be_visible()
    screenshot(page, "quick-match-waiting")
    ask_for_a_table(second_page, base, "Ben", "")  # Ben completes the table
    expect(second_page).to_have_url(WATCH)
    expect(page).to_have_url(WATCH)  # Ann's page saw the match and went there too
    assert game_of(page) == game_of(second_page)
    expect(page.locator("#whoami")).to_have_text("You are Ann, seat 0.")
    expect(second_page.locator("#whoami")).to_have_text("You are Ben, seat 1.")


def test_bots_fill_the_table_after_the_wait_chosen_in_the_lobby(base: str, page: Page) -> None:
    ask_for_a_table(page, base, "Cat", "0")
    expect(page).to_have_url(WATCH)
    expect(page.locator("#whoami")).to_have_text("You are Cat, seat 0.")


def test_a_finished_games_page_links_its_rematch_and_moves_a_watcher_there(
    base: str, http: httpx.Client, page: Page
) -> None:
    game = finished_heartbeat(http, 7)
    page.goto(f"{base}/games/{game.game_id}/watch")
    expect(page.locator("#rematch-status")).to_have_text("Nobody has offered a rematch yet.")
    expect(page.locator("#rematch-offer")).to_be_hidden()  # a spectator does not answer

    page.fill("#token", game.tokens[0])  # now seated: the page offers the rematch
    page.click("#token-form button[type=submit]")
    offer = page.locator("#rematch-offer")
    expect(offer).to_have_text("Offer a rematch")
    offer.click()
    expect(page.locator("#rematch-status")).to_contain_text("offered a rematch; waiting for")
    expect(offer).to_be_hidden()
    expect(page.locator("#rematch-decline")).to_have_text("Withdraw the offer")
    screenshot(page, "rematch-offered")

    made = http.post(f"/games/{game.game_id}/rematch", headers=game.auth(1)).json()
    new_game = made["new_game_id"]
    expect(page).to_have_url(re.compile(f"/games/{new_game}/watch"))  # the page followed
    expect(page.locator("#whoami")).to_have_text(
        f"You are {game.public()['seats'][0]['name']}, seat 1."
    )

    page.goto(f"{base}/games/{game.game_id}/watch")  # the old game's replay stays put
    link = page.locator("#rematch-link")
    expect(link).to_have_text(f"rematch: {new_game}")
    expect(page).to_have_url(re.compile(f"/games/{game.game_id}/watch"))
    link.click()
    expect(page).to_have_url(re.compile(f"/games/{new_game}/watch"))

    page.goto(f"{base}/")  # the lobby links it too
    page.click("#status-tabs button[data-status=finished]")
    old_row = page.locator(f"#games tr[data-game-id='{game.game_id}']")
    expect(old_row.locator("a.rematch")).to_have_attribute("href", f"/games/{new_game}/watch")
