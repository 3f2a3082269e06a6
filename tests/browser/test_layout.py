"""No sideways scrolling: a game's page fits a window from a phone's 390 px up to a laptop's
1,366 px, for every variant at every seat count it allows, as a seated player in play, with
every hand face up in the middle of the game, and at the end."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from domain.variants import VARIANTS
from tests.browser.players import Game

WIDTHS = (390, 768, 1366)
MOVES = 1_500
Table = dict[str, Any]

# Short games, played until the table holds what makes it widest: a round or hand scored into
# the tables drawn per seat, tricks and piles on the felt.
GAMES: dict[str, tuple[dict[str, Any], Callable[[Table], bool]]] = {
    "heartbeat": ({"pressure_seconds": 10}, lambda t: len(t["rounds"]) >= 2),
    "double-heartbeat": ({"hands": 2}, lambda t: len(t["results"]) >= 1 and t["phase"] == "play"),
    "open-hand": ({}, lambda t: len(t["tricks"]) >= 2 and len(t["trick"]) >= 1),
    "cancellation-hearts": ({"target": 50}, lambda t: t["hand_number"] >= 2 and t["trick"]),
    "one-up-one-down": ({"challenge_seconds": 0}, lambda t: len(t["pile"]) >= 4),
}
CASES = [
    (variant, seats)
    for variant in sorted(VARIANTS)
    for seats in range(VARIANTS[variant].min_seats, VARIANTS[variant].max_seats + 1)
]

# What sticks out past the window's right edge, outermost first, to say what to fix.
STICKING_OUT = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll("body *")]
    .filter((node) => node.getBoundingClientRect().right > width + 0.5)
    .filter((node) => !node.parentElement.closest(".scroll"))
    .slice(0, 5)
    .map((node) => `${node.tagName.toLowerCase()}.${[...node.classList].join(".")}`);
}"""


def fits(page: Page, moment: str) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        scroll, client = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert scroll <= client, (
            f"{moment} at {width} px: the page is {scroll} px wide in a {client} px window; "
            f"sticking out: {page.evaluate(STICKING_OUT)}"
        )


def drawn(page: Page, version: int) -> None:
    """The page shows ``version``, with its audit and scores drawn (they come a moment later)."""
    expect(page.locator("body")).to_have_attribute("data-version", str(version))
    expect(page.locator("#scoreboard table, #scoreboard p").first).to_be_visible()


@pytest.mark.parametrize(("variant", "seats"), CASES)
def test_no_page_is_wider_than_its_window(
    base: str, http: httpx.Client, page: Page, variant: str, seats: int
) -> None:
    options, widest = GAMES[variant]
    game = Game(http, variant, seats, options)
    rng = random.Random(seats)
    for _ in range(MOVES):
        public = game.public()
        if widest(public["table"]) and public["to_act"]:
            break
        assert game.step(rng), "the game ended before its table was at its widest"
    else:
        pytest.fail(f"the table was not at its widest in {MOVES} moves")
    url = f"{base}/games/{game.game_id}/watch"

    seat = public["to_act"][0]  # a seated player with moves to choose from
    page.goto(url)
    page.evaluate(f"sessionStorage.setItem('cardledger-token', {json.dumps(game.tokens[seat])})")
    page.goto(url)
    expect(page.locator("#perspective")).to_have_value(f"seat:{seat}")
    drawn(page, public["version"])
    expect(page.locator("#moves")).to_be_visible()
    fits(page, f"seat {seat} in play")

    # The end, by forfeit: every hand still held is shown, face up.
    for leaving in range(seats):
        if leaving != seat:
            body = {"type": "leave"}
            http.post(f"/games/{game.game_id}/commands", json=body, headers=game.auth(leaving))
    end = game.public()
    assert end["status"] == "finished"
    page.evaluate("sessionStorage.clear()")
    page.goto(f"{url}?perspective=full")
    drawn(page, end["version"])
    fits(page, "the end")
    page.locator("#slider").fill(str(public["version"]))
    drawn(page, public["version"])
    fits(page, "every hand in the middle of the game")
