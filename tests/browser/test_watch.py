"""Watching games: every variant followed live to the end, a finished match stepped back through
in every perspective, receipts, unknown games and forbidden perspectives, a phone's width."""

from __future__ import annotations

import random
import re
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Console, screenshot
from tests.browser.players import Game
from tests.support.client import SHORT_GAMES

Table = dict[str, Any]


# A moment worth a screenshot, per variant: the middle of the table has something to show.
BUSY: dict[str, Callable[[Table], bool]] = {
    "open-hand": lambda t: len(t["tricks"]) >= 2 and len(t["trick"]) >= 2,
    "heartbeat": lambda t: t["round"] >= 2 and t["phase"] == "choose" and any(t["chosen"]),
    "double-heartbeat": lambda t: len(t["discards"]) >= 30 and len(t["trick"]) >= 3,
    "cancellation-hearts": lambda t: t["tricks_played"] >= 5 and len(t["trick"]) >= 4,
    "one-up-one-down": lambda t: t["challenge"] is not None and len(t["pile"]) >= 3,
}


# How each variant's own end is named (RULES.md): the words above the table once it is over.
OWN_END: dict[str, Callable[[Table], str]] = {
    "open-hand": lambda t: "All five tricks were played: the most tricks win.",
    "heartbeat": lambda t: f"All {t['rounds_total']} rounds were played: the most chips win.",
    "double-heartbeat": lambda t: "The hand was played: the highest total wins.",
    "cancellation-hearts": lambda t: (
        f"reached the target of {t['options']['target']} after hand {t['hand_number']}: "
        "the lowest total wins."
    ),
    "one-up-one-down": lambda t: {
        "last_card": "'s last card stood.",
        "cap": f"The limit of {t['options']['max_plays']} plays was reached: the fewest cards win.",
        "vote": "Every player still in voted to end it once the stock was empty",
        "blocked": "Nobody still in had a card to play: the fewest cards win.",
    }[t["ended_by"]],
}


def listed(names: list[str]) -> str:
    """Names as the viewer lists them: "Ann", "Ann and Ben", "Ann, Ben and Cat"."""
    return " and ".join(filter(None, [", ".join(names[:-1]), names[-1]]))


def expect_the_end_named_and_hands_shown(page: Page, variant: str, public: dict[str, Any]) -> None:
    """The ending says how the game ended and who won; every hand left is face up, as every
    hand is public once the game is over."""
    ending = page.locator(".felt .ending")
    expect(ending).to_have_attribute("data-end-reason", "complete")
    expect(ending).to_contain_text(OWN_END[variant](public["table"]))
    winners = [public["seats"][seat]["name"] for seat in public["winners"]]
    expect(ending).to_contain_text(f"{listed(winners)} win")
    hands = page.locator(".felt .seat .hand")
    expect(hands.locator(".card.back")).to_have_count(0)
    expect(hands.locator(".card.face")).to_have_count(sum(public["hand_sizes"]))


def busy_check(page: Page, variant: str, table: Table) -> None:
    middle = page.locator(".felt .middle")
    if variant == "open-hand":
        expect(middle.locator(".plays").first.locator(".play")).to_have_count(len(table["trick"]))
    elif variant == "heartbeat":
        expect(middle.locator(".tempo")).to_be_visible()
        expect(middle.locator(".choices .play")).to_have_count(len(table["chosen"]))
    elif variant == "double-heartbeat":
        expect(middle.locator(".combination")).to_contain_text(table["top"]["rank"])
    elif variant == "cancellation-hearts":
        expect(middle.locator(".totals .total")).to_have_count(6)
        expect(middle).to_contain_text("hearts")
    else:
        expect(middle.locator(".target .rank")).to_have_text(table["target"])
        expect(middle.locator(".pile .play")).to_have_count(len(table["pile"]))
        expect(middle.locator(".challenge .countdown")).to_be_visible()


@pytest.mark.parametrize("variant", sorted(SHORT_GAMES))
def test_a_live_game_is_followed_to_the_end(
    base: str, http: httpx.Client, page: Page, variant: str
) -> None:
    seats, options = SHORT_GAMES[variant]
    if variant == "one-up-one-down":
        options = {**options, "challenge_seconds": 60}  # a window with a countdown to show
    game = Game(http, variant, seats, options)
    page.goto(f"{base}/games/{game.game_id}/watch")
    expect(page.locator("#live")).to_be_checked()
    expect(page.locator(".felt .seat")).to_have_count(seats)
    expect(page.locator(".felt .seat[data-seat='0'] .name")).to_have_text("张伟")
    rng = random.Random(variant)
    for _ in range(400):
        table = game.public()["table"]
        if BUSY[variant](table):
            break
        assert game.step(rng), "the game ended before a busy moment"
    else:
        pytest.fail("no busy moment in 400 moves")
    head = game.head()
    expect(page.locator("#version")).to_have_text(str(head))
    busy_check(page, variant, table)
    expect(page.locator("#audit-as-of")).to_have_text(f"as of event {head}")
    expect(page.locator("#description")).not_to_be_empty()
    screenshot(page, variant)
    game.play(rng)
    head = game.head()
    expect(page.locator("#version")).to_have_text(str(head), timeout=20_000)
    expect(page.locator("#game-status")).to_have_text("finished")
    expect_the_end_named_and_hands_shown(page, variant, game.public())
    expect(page.locator("#verdict")).to_have_text("valid")
    expect(page.locator("#seed-check")).to_have_attribute("data-match", "true")
    expect(page.locator("#export")).to_be_visible()
    expect(page.locator("#live")).not_to_be_checked()
    expect(page.locator("#log li")).to_have_count(head)
    expect_every_event_worded(page, http, game)
    totals = http.get(f"/games/{game.game_id}/scoreboard").json()["totals"]
    scores = page.locator(".felt .seat .score").evaluate_all(
        "els => els.map(e => [Number(e.closest('.seat').dataset.seat), Number(e.dataset.score)])"
    )
    assert [score for _, score in sorted(scores)] == totals


def expect_every_event_worded(page: Page, http: httpx.Client, game: Game) -> None:
    """Each event in the log has a sentence of its own, not the type name the log falls back to
    when neither events.js nor the variant's table module words it."""
    events: list[dict[str, Any]] = []
    head = game.head()
    while len(events) < head:
        url = f"/games/{game.game_id}/events?after={len(events)}&limit=500"
        events += http.get(url).raise_for_status().json()["events"]
    sentences = page.locator("#log li summary").all_inner_texts()
    assert len(sentences) == len(events)
    named = [
        (event["type"], sentence)
        for event, sentence in zip(events, sentences, strict=True)
        if sentence.startswith(re.sub(r"([a-z])([A-Z])", r"\1 \2", event["type"]))
    ]
    assert not named, f"events shown by their type's name: {named}"


FACE_UP = """() => [...document.querySelectorAll('.felt .seat')]
    .filter(e => e.querySelector('.hand .card.face')).map(e => Number(e.dataset.seat))
    .sort((a, b) => a - b).join(',')"""


def expect_face_up(page: Page, seats: list[int]) -> None:
    wanted = ",".join(str(seat) for seat in seats)
    page.wait_for_function(f"({FACE_UP})() === {wanted!r}")


def holding_cards(http: httpx.Client, game: Game, version: int, seats: list[int]) -> list[int]:
    """Those of ``seats`` with cards after event ``version``: a player who went out has none
    to show (a random deal decides who, and when)."""
    url = f"/games/{game.game_id}/replay?perspective=public&from={version}&limit=1"
    sizes = http.get(url).raise_for_status().json()["frames"][0]["view"]["hand_sizes"]
    return [seat for seat in seats if sizes[seat]]


def test_a_finished_match_steps_back_in_every_perspective(
    base: str, http: httpx.Client, page: Page
) -> None:
    game = Game(http, "double-heartbeat", 3, {"hands": 2})
    game.play(random.Random(5))
    head = game.head()
    page.goto(f"{base}/games/{game.game_id}/watch")
    expect(page.locator("#head")).to_have_text(str(head))
    expect(page.locator("#version")).to_have_text(str(head))
    expect(page.locator("#live")).not_to_be_checked()
    for perspective, seen in (
        ("public", []),
        ("seat:0", [0]),
        ("seat:1", [1]),
        ("seat:2", [2]),
        ("full", [0, 1, 2]),
    ):
        page.select_option("#perspective", perspective)
        page.keyboard.press("End")
        expect(page.locator("#version")).to_have_text(str(head))
        for back in range(1, 46):  # across a page of frames
            page.keyboard.press("ArrowLeft")
            expect(page.locator("#version")).to_have_text(str(head - back))
        expect(page.locator(".felt .middle")).to_contain_text("Hand 2 of 2")
        expect_face_up(page, holding_cards(http, game, head - 45, seen))
        page.locator("#slider").fill(str(head // 4))
        expect(page.locator("#version")).to_have_text(str(head // 4))
        expect(page.locator(".felt .middle")).to_contain_text("Hand 1 of 2")
        expect_face_up(page, holding_cards(http, game, head // 4, seen))
        page.keyboard.press("Home")
        expect(page.locator("#version")).to_have_text("1")
        expect(page.locator("#description")).to_contain_text("is created")
    page.keyboard.press("End")
    expect(page.locator(".felt .middle")).to_contain_text("Hand and match scores")
    screenshot(page, "double-heartbeat-finished-full")


def test_receipts_are_checked_against_the_log(base: str, http: httpx.Client, page: Page) -> None:
    game = Game(http, "open-hand", 2, {})
    game.play(random.Random(2))
    events = http.get(f"/games/{game.game_id}/events?after=0&limit=500").json()["events"]
    tenth = events[9]
    page.goto(f"{base}/games/{game.game_id}/watch")
    expect(page.locator("#verdict")).to_have_text("valid")
    entry = page.locator("#log li[data-version='10']")
    entry.locator("summary").click()
    expect(entry.locator(".chain")).to_contain_text(tenth["hash"])
    expect(entry.locator(".chain")).to_contain_text(tenth["prev_hash"])
    entry.locator(".goto").click()
    expect(page.locator("#version")).to_have_text("10")
    result = page.locator("#receipt-result")
    for receipt, kind, words in (
        (f"10:{tenth['hash']}", "pass", "holds this receipt"),
        (f"10:{events[8]['hash']}", "fail", "does not hold"),
        (f"9999:{tenth['hash']}", "fail", "holds no event 9999"),
        ("twelve:abc", "fail", "not a receipt"),
    ):
        page.fill("#receipt", receipt)
        page.click("#receipt-form button")
        expect(result).to_have_attribute("data-result", kind)
        expect(result).to_contain_text(words)


def test_unknown_games_and_forbidden_perspectives_say_so(
    base: str, http: httpx.Client, page: Page, console: Console
) -> None:
    console.expect(r"404 \(Not Found\)")  # the page asks for the game once
    page.goto(f"{base}/games/{uuid.uuid4()}/watch")
    expect(page.locator("#missing")).to_be_visible()
    expect(page.locator("#missing")).to_contain_text("There is no game")
    expect(page.locator("#game")).to_be_hidden()
    game = Game(http, "open-hand", 3, {})
    page.goto(f"{base}/games/{game.game_id}/watch?perspective=full")
    expect(page.locator("#notice")).to_contain_text("opens when the game is over")
    expect(page.locator("#perspective")).to_have_value("public")
    page.select_option("#perspective", "seat:1")
    expect(page.locator("#notice")).to_contain_text("Only Ann's player sees seat 1")
    expect(page.locator("#perspective")).to_have_value("public")
    expect_face_up(page, [])
    page.goto(f"{base}/games/{game.game_id}/watch?perspective=seat:7")
    expect(page.locator("#notice")).to_contain_text("no perspective")
    page.fill("#token", game.tokens[1])
    page.click("#token-form button[type=submit]")
    expect(page.locator("#perspective")).to_have_value("seat:1")
    expect(page.locator("#hand .card")).to_have_count(5)
    expect_face_up(page, [1])
    page.select_option("#perspective", "seat:2")
    expect(page.locator("#notice")).to_contain_text("Only 李娜's player")
    expect(page.locator("#notice")).to_contain_text("Showing your own seat")
    expect(page.locator("#perspective")).to_have_value("seat:1")
    expect_face_up(page, [1])


def test_another_token_redraws_table_and_seat_in_one_perspective(
    base: str, http: httpx.Client, page: Page
) -> None:
    """One tab, one player's token then another's: the table turns to the new seat with the
    panel, no request is refused on the way (a 403 is a console error), no banner stays."""
    game = Game(http, "open-hand", 3, {})
    game.play(random.Random(3), steps=2)
    page.goto(f"{base}/games/{game.game_id}/watch")
    expect(page.locator("#version")).to_have_text(str(game.head()))
    for seat in (1, 2):
        page.fill("#token", game.tokens[seat])
        page.click("#token-form button[type=submit]")
        expect(page.locator("#perspective")).to_have_value(f"seat:{seat}")
        expect(page.locator("#whoami")).to_contain_text(f"seat {seat}.")
        expect(page.locator(".felt .seat.me")).to_have_attribute("data-seat", str(seat))
        expect_face_up(page, [seat])
        hand = http.get(f"/games/{game.game_id}/view", headers=game.auth(seat)).json()["hand"]
        mine = page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
        on_table = page.locator(".felt .seat.me .hand .card").evaluate_all(
            "cs => cs.map(c => c.dataset.card)"
        )
        assert sorted(mine) == sorted(on_table) == sorted(hand)
        expect(page.locator("#notice")).to_be_hidden()
    page.click("#forget")
    expect(page.locator("#perspective")).to_have_value("public")
    expect(page.locator("#whoami")).to_contain_text("spectator")
    expect_face_up(page, [])
    expect(page.locator("#notice")).to_be_hidden()


def test_a_phone_shows_the_whole_table_without_sideways_scrolling(
    base: str, http: httpx.Client, phone: Page
) -> None:
    game = Game(http, "cancellation-hearts", 6, {"target": 50})
    game.play(random.Random(4), steps=40)
    phone.goto(f"{base}/games/{game.game_id}/watch")
    expect(phone.locator(".felt .seat")).to_have_count(6)
    expect(phone.locator("#version")).to_have_text(str(game.head()))
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.keyboard.press("ArrowLeft")
    expect(phone.locator("#version")).to_have_text(str(game.head() - 1))
    screenshot(phone, "cancellation-hearts-phone")
