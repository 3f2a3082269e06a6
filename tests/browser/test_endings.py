"""How a game ended, named as it happened, on the table of the game's page: every end reason the
domain produces (domain/variant.py FORFEIT, GameCancelled.by, One Up One Down's ended_by) in
its own words. Each variant's own end is checked where test_watch.py follows a game to it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.conftest import ADMIN
from tests.browser.players import NAMES, Game
from tests.browser.test_generic_table import BARE_PAGE

ATTEMPTS = 12  # games tried for an ending the bots reach by chance
MOVES = 2_000  # moves a game may take before it counts as not reaching it


def ended_table(page: Page, base: str, http: httpx.Client, game_id: str, reason: str) -> str:
    """The ending above the table on the game's page, in the public perspective."""
    head = http.get(f"/games/{game_id}").raise_for_status().json()["version"]
    page.goto(f"{base}/games/{game_id}/watch")
    expect(page.locator("#version")).to_have_text(str(head))
    ending = page.locator(".felt .ending")
    expect(ending).to_have_attribute("data-end-reason", reason)
    return ending.inner_text()


def names(seats: list[int]) -> str:
    return " and ".join(NAMES[seat] for seat in seats)  # at most two winners here


def public_table(game: Game) -> dict[str, Any]:
    return dict(game.public()["table"])


def on_bare_page(page: Page, base: str, view: dict[str, Any]) -> str:
    """The ending the viewer's modules draw above the table of ``view``, on a bare page."""

    def bare(route: Route) -> None:
        route.fulfill(body=BARE_PAGE, content_type="text/html")

    page.route(f"{base}/bare", bare)
    page.goto(f"{base}/bare")
    page.wait_for_function("() => typeof window.show === 'function'")
    page.evaluate("shown => show(shown)", {"view": view, "events": []})
    return page.locator(".felt .ending").inner_text()


# --- One Up One Down's four ways to end ---------------------------------------------------------


def stalling(game: Game, rng: random.Random) -> bool:
    """One move of a table that drains the stock, then votes to end. Every seat votes once it
    may; a face-down card is the highest, declared 2, so the next face-up card (the lowest) is
    below the target and its player draws; a face-down card of a seat nearly out is challenged
    (a lie, most likely: the pile goes back to it), others are let stand. False once over."""
    public = game.public()
    if public["status"] != "active":
        return False
    challenge = public["table"]["challenge"]
    for seat in range(public["seat_count"]):
        mine = game.http.get(f"/games/{game.game_id}/view", headers=game.auth(seat)).json()
        legal = {c["type"]: c for c in reversed(mine["legal_commands"])}  # the first of each
        if "vote_end" in legal:
            move = legal["vote_end"]
        elif challenge and "challenge" in legal:
            nearly_out = public["hand_sizes"][challenge["seat"]] <= 2
            move = legal["challenge" if nearly_out else "decline"]
        elif "play_down" in legal:
            # the highest card: the last one left is then a lower one, a lie a challenge catches
            move = [c for c in mine["legal_commands"] if c.get("declared") == "2"][-1]
        elif "play_up" in legal:
            move = legal["play_up"]  # listed lowest first
        else:
            continue
        game.http.post(f"/games/{game.game_id}/commands", json=move, headers=game.auth(seat))
        return True
    return True


def one_up_one_down_ending(
    http: httpx.Client, ended_by: str, seats: int, options: dict[str, Any], bot: Callable[..., Any]
) -> Game:
    """A finished One Up One Down game that ended ``ended_by``, trying games until one does."""
    for attempt in range(ATTEMPTS):
        game = Game(http, "one-up-one-down", seats, {"challenge_seconds": 0, **options})
        rng = random.Random(attempt)
        for _ in range(MOVES):
            if not bot(game, rng):
                break
        if game.public()["status"] == "finished" and public_table(game)["ended_by"] == ended_by:
            return game
    pytest.fail(f"no game ended by {ended_by} in {ATTEMPTS} tries")


def test_a_last_card_that_stood_is_named(base: str, http: httpx.Client, page: Page) -> None:
    game = one_up_one_down_ending(http, "last_card", 2, {}, Game.step)
    winners = game.public()["winners"]
    words = ended_table(page, base, http, game.game_id, "complete")
    assert words == f"{names(winners)}'s last card stood. {names(winners)} wins."
    assert "agreement" not in page.locator(".felt").inner_text()


def test_the_play_limit_is_named(base: str, http: httpx.Client, page: Page) -> None:
    game = one_up_one_down_ending(http, "cap", 3, {"max_plays": 4}, Game.step)
    words = ended_table(page, base, http, game.game_id, "complete")
    assert words.startswith("The limit of 4 plays was reached: the fewest cards win. ")
    stalemate = page.locator("#log li summary").all_inner_texts()[-2]  # before GameFinished
    assert stalemate.startswith("The game ends: the play limit was reached, so the fewest")


def test_a_vote_to_end_is_named(base: str, http: httpx.Client, page: Page) -> None:
    game = one_up_one_down_ending(http, "vote", 4, {}, stalling)
    words = ended_table(page, base, http, game.game_id, "complete")
    assert words.startswith(
        "Every player still in voted to end it once the stock was empty: the fewest cards win. "
    )


@pytest.mark.parametrize(
    ("ended_by", "words"),
    [
        ("blocked", "Nobody still in had a card to play: the fewest cards win. "),
        ("abandoned", "At most one player was still in: the fewest cards win. "),
    ],
)
def test_stalemates_the_bots_do_not_reach_are_named(
    base: str, http: httpx.Client, page: Page, ended_by: str, words: str
) -> None:
    """``blocked`` guards a table where nobody still in holds a card; ``abandoned`` is in logs
    from before forfeits: a real ending's view, its ``ended_by`` changed, on a bare page."""
    game = one_up_one_down_ending(http, "cap", 2, {"max_plays": 2}, Game.step)
    view = game.http.get(f"/games/{game.game_id}/view", headers=game.auth(0)).json()
    view["table"]["ended_by"] = ended_by
    assert on_bare_page(page, base, view).startswith(words)


# --- what every variant shares: forfeits and cancellations -------------------------------------


def test_a_forfeit_is_named(base: str, http: httpx.Client, page: Page) -> None:
    game = Game(http, "open-hand", 3, {})
    game.play(random.Random(1), steps=4)
    for seat in (1, 2):
        body = {"type": "leave"}
        http.post(f"/games/{game.game_id}/commands", json=body, headers=game.auth(seat))
    assert game.public()["status"] == "finished"
    words = ended_table(page, base, http, game.game_id, "forfeit")
    assert words == f"Fewer than two players were left at the table: {NAMES[0]} wins by forfeit."
    expect(page.locator("#log li").last).to_contain_text("Game over by forfeit")
    # The last seat leaving too would leave nobody (RULES.md, Leaving): a view as it would be.
    view = http.get(f"/games/{game.game_id}/view", headers=game.auth(0)).json()
    nobody = on_bare_page(page, base, {**view, "winners": []})
    assert nobody == "Every player left the table: nobody wins."


@pytest.mark.parametrize(
    ("by", "words"),
    [
        ("creator", "by its creator before it started"),
        ("vote", "by a vote of the players"),
        ("admin", "by the operator"),
    ],
)
def test_a_cancellation_says_who_cancelled(
    base: str, http: httpx.Client, page: Page, by: str, words: str
) -> None:
    if by == "creator":
        token = http.post("/players", json={"name": NAMES[0]}).raise_for_status().json()["token"]
        creator = {"Authorization": f"Bearer {token}"}
        body = {"variant": "heartbeat", "seats": 2}
        game_id = (
            http.post("/games", json=body, headers=creator).raise_for_status().json()["game_id"]
        )
        http.post(f"/games/{game_id}/cancel", headers=creator).raise_for_status()
    else:
        game = Game(http, "heartbeat", 2, {})
        game_id = game.game_id
        if by == "vote":
            for seat in (0, 1):
                body = {"type": "vote_cancel"}
                http.post(f"/games/{game_id}/commands", json=body, headers=game.auth(seat))
        else:
            admin = {"Authorization": f"Bearer {ADMIN}"}
            http.post(f"/games/{game_id}/cancel", headers=admin).raise_for_status()
    text = ended_table(page, base, http, game_id, "cancelled")
    assert text == f"The game was cancelled {words}: it is void, nobody wins or ranks."
    expect(page.locator(".felt .seat.winner")).to_have_count(0)
