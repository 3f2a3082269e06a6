"""A variant the viewer has no table module for (a newer server's) is still shown and played:
real views and events of every variant, their variant renamed to an id no module has, drawn by
the viewer's own modules on a bare page of the service's origin."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.conftest import screenshot, select
from tests.browser.players import Game
from tests.support.client import SHORT_GAMES

UNKNOWN = "seventh-game"
# The table, a seat's moves and the log, as watch.js draws them; what a move sends is kept.
BARE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="stylesheet" href="/static/viewer.css">
</head><body class="watch"><div class="board"><div id="table" class="table-area"></div>
<section class="panel"><div id="play"></div></section></div>
<div class="log-box"><ol id="log" class="log"></ol></div>
<script type="module">
import { renderLog } from "/static/watch/log.js";
import { loadVariants } from "/static/shared/names.js";
import { renderPlay } from "/static/table/play.js";
import { renderTable } from "/static/table/tables.js";
await loadVariants();
window.sent = [];
window.show = ({ view, events }) => {
  const who = (seat) => (view.seats[seat] ? view.seats[seat].name : `seat ${seat}`);
  const ctx = { who, mySeat: view.seat, live: false, events, version: view.version };
  renderTable(document.getElementById("table"), view, ctx);
  renderPlay(document.getElementById("play"), view, { who, send: (c) => window.sent.push(c) });
  renderLog(document.getElementById("log"), events, { who, variant: view.variant, goto() {} });
};
</script></body></html>"""
# Moves before the page is shown: a deal still being passed or buried, and a game under way.
STEPS = {"cancellation-hearts": 0, "double-heartbeat": 6, "heartbeat": 2}


def seat_to_act(game: Game, rng: random.Random) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The view of a seat the game waits for, renamed to UNKNOWN, and the log up to it."""
    while not game.public()["to_act"]:
        assert game.step(rng), "the game ended before a seat was to act"
    seat = game.public()["to_act"][0]
    view = game.http.get(f"/games/{game.game_id}/view", headers=game.auth(seat)).json()
    url = f"/games/{game.game_id}/events?after=0&limit=500"
    events = game.http.get(url, headers=game.auth(seat)).json()["events"]
    return {**view, "variant": UNKNOWN}, events


@pytest.mark.parametrize("variant", sorted(SHORT_GAMES))
def test_a_variant_without_a_table_module_is_shown_and_played(
    base: str, http: httpx.Client, page: Page, variant: str
) -> None:
    seats, options = SHORT_GAMES[variant]
    game = Game(http, variant, seats, options)
    rng = random.Random(variant)
    game.play(rng, steps=STEPS.get(variant, 5))
    view, events = seat_to_act(game, rng)

    def bare(route: Route) -> None:
        route.fulfill(body=BARE_PAGE, content_type="text/html")

    page.route(f"{base}/bare", bare)
    page.goto(f"{base}/bare")
    page.wait_for_function("() => typeof window.show === 'function'")
    page.evaluate("shown => show(shown)", {"view": view, "events": events})

    felt = page.locator(f".felt[data-variant='{UNKNOWN}']")
    expect(felt.locator(".seat")).to_have_count(seats)
    for seat, size in enumerate(view["hand_sizes"]):
        expect(felt.locator(f".seat[data-seat='{seat}'] .count")).to_have_text(str(size))
    acting = felt.locator(f".seat[data-seat='{view['seat']}']")
    expect(acting.locator(".acting")).to_have_text("to act")
    middle = felt.locator(".middle")
    expect(middle).to_contain_text("no picture of this game")
    expect(middle.locator(".facts dt", has_text="to act")).to_have_count(1)
    for name in view["table"]:
        expect(middle.locator("dt", has_text=name.replace("_", " ")).first).to_be_visible()
    expect(page.locator("#log li")).to_have_count(len(events))
    screenshot(page, f"generic-table-{variant}")

    # Every button sends a command the view lists, and a move is made by clicking.
    commands = page.locator("#moves button[data-command]").evaluate_all(
        "buttons => buttons.map(b => JSON.parse(b.dataset.command))"
    )
    assert commands and all(command in view["legal_commands"] for command in commands)
    legal = view["legal_commands"]
    move = next((c for c in legal if "card" in c or "cards" in c), commands[0])
    if "card" in move:
        page.locator(f"#hand .card[data-card='{move['card']}']").first.click()
        if sum(c.get("card") == move["card"] for c in legal) > 1:
            page.locator("#moves .alternatives button").first.click()
    elif "cards" in move:  # a listed command of several cards, or one of a form's: selected
        select(page, move["cards"])
        page.locator("#moves .chosen button.primary").first.click()
    else:
        page.locator("#moves button[data-command]").first.click()
    assert page.evaluate("window.sent") == [move]
