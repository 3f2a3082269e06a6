"""Playing alone: from the lobby a person starts a game of each variant against bots and plays it
to its end by clicking, while the service's bot driver plays every other seat."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect

from domain.choices import nth_pick
from tests.browser.conftest import Console, screenshot, select

HUMAN = 0
NAME = "张伟"
# Per variant: players, table settings as typed into the lobby's form (short games, no
# deadline that a busy machine could let pass between two clicks), and the bots' level
# ("default": the level the form offers first; "top": the highest the variant has).
TABLES: dict[str, tuple[int, dict[str, str], str]] = {
    "open-hand": (3, {}, "top"),
    "heartbeat": (3, {"tempo_deck": "0"}, "default"),
    "one-up-one-down": (2, {"max_plays": "30", "challenge_seconds": "0"}, "default"),
    "cancellation-hearts": (6, {"target": "50"}, "default"),
    "double-heartbeat": (3, {"hands": "1"}, "default"),
}
MOVES = 300  # more than the person makes in any game above
LOOKS = 200  # times the page may be caught between the bots' moves before it counts as stuck

# The person may move and nothing else can happen meanwhile: the page shows it, the table and
# the person's panel drawn at one version, with only seat 0 to act; or the game is over.
QUIET = """() => {
  const status = document.getElementById("game-status").dataset.status;
  if (status && status !== "active") return true;
  const acting = [...document.querySelectorAll(".felt .seat.to-act")].map((s) => s.dataset.seat);
  return document.querySelector("#play .turn.yours") !== null && acting.join() === "0"
    && document.body.dataset.myVersion === document.body.dataset.version;
}"""


def offered_level(levels: list[int]) -> int:
    """The level the form offers first: the highest below the searching levels."""
    return max((level for level in levels if level < 3), default=min(levels))


def start_from_lobby(page: Page, base: str, variant: dict[str, Any]) -> tuple[str, int]:
    """Fills the lobby's form for a game against bots and sits down: the game's id and the
    bots' level, once the game's page shows the person at seat 0."""
    seats, settings, wanted = TABLES[variant["id"]]
    page.goto(f"{base}/")
    page.fill("#solo-name", NAME)
    page.select_option("#solo-variant", variant["id"])
    levels = variant["bot_levels"]
    expect(page.locator("#solo-level option")).to_have_count(len(levels))
    expect(page.locator("#solo-level")).to_have_value(str(offered_level(levels)))
    level = max(levels) if wanted == "top" else offered_level(levels)
    page.select_option("#solo-level", str(level))
    expect(page.locator("#solo-seats")).to_have_value(str(variant["min_players"]))
    page.fill("#solo-seats", str(seats))
    if settings:
        page.click("#solo-settings summary")
    for name, value in settings.items():
        field = page.locator(f"#solo-options [data-option='{name}']")
        if field.evaluate("node => node.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    page.click("#solo-start")
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/watch$"))
    expect(page.locator("#whoami")).to_have_text(f"You are {NAME}, seat {HUMAN}.")
    return page.url.split("/")[-2], level


def my_turn(
    page: Page, http: httpx.Client, game_id: str, auth: dict[str, str]
) -> dict[str, Any] | None:
    """Waits until only the person can move, with the page showing that very view (returned),
    or until the game is over (None)."""
    for _ in range(LOOKS):
        page.wait_for_function(QUIET, timeout=20_000)
        answer = http.get(f"/games/{game_id}/view", headers=auth).raise_for_status()
        view: dict[str, Any] = answer.json()
        if view["status"] != "active":
            return None
        shown = page.locator("body").get_attribute("data-my-version")
        if view["to_act"] == [HUMAN] and shown == str(view["version"]):
            return view
    pytest.fail(f"the page never settled on the person's turn in {LOOKS} looks")


def completed(form: dict[str, Any], cards: list[str]) -> dict[str, Any]:
    """The form's command with ``cards`` appended to its field."""
    field = form["field"]
    return {**form["command"], field: [*form["command"][field], *cards]}


def representatives(form: dict[str, Any]) -> list[dict[str, Any]]:
    """The form's commands that ``legal_commands`` lists too (domain/choices.py): the first
    ``n`` entries of ``from`` for every size ``n`` it allows."""
    sizes = range(form["min"], min(form["max"], len(form["from"])) + 1)
    return [completed(form, [c for entry in form["from"][:n] for c in entry]) for n in sizes]


def any_move(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal move of the person, every command equally likely (a choice form weighs as many
    as it stands for); never leaving or cancelling."""
    forms = view["choice_forms"]
    standing_in = [command for form in forms for command in representatives(form)]
    entries: list[dict[str, Any]] = list(forms)
    for command in view["legal_commands"]:
        if command in standing_in:
            standing_in.remove(command)
        elif command["type"] not in ("leave", "vote_cancel"):
            entries.append(command)
    weights = [entry.get("count", 1) if entry["type"] == "choice" else 1 for entry in entries]
    index = rng.randrange(sum(weights))
    for entry, weight in zip(entries, weights, strict=True):
        if index < weight:
            if entry["type"] != "choice":
                return entry
            return completed(entry, nth_pick(entry["from"], entry["min"], entry["max"], index))
        index -= weight
    raise AssertionError("unreachable: the index is below the total weight")


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The same command: the same fields, the cards in any order."""
    return {**a, "cards": sorted(a.get("cards", []))} == {**b, "cards": sorted(b.get("cards", []))}


def press(buttons: Locator, command: dict[str, Any]) -> None:
    """Clicks the button among ``buttons`` that sends ``command``."""
    for button in buttons.all():
        if same(json.loads(button.get_attribute("data-command") or "{}"), command):
            button.click()
            return
    pytest.fail(f"no button sends {command}")


def click_move(page: Page, view: dict[str, Any], command: dict[str, Any]) -> None:
    """Makes ``command`` on the page as a person does: a card clicked (and the move named, where
    the card makes several), cards picked one by one and the move they make, or a button."""
    if "card" in command:
        page.locator(f"#hand .card.playable[data-card='{command['card']}']").first.click()
        naming = [c for c in view["legal_commands"] if c.get("card") == command["card"]]
        if len(naming) > 1:
            press(page.locator("#moves .alternatives button.alternative"), command)
    elif "cards" in command:
        select(page, command["cards"])
        press(page.locator("#moves .chosen button.primary"), command)
    else:
        press(page.locator("#moves .buttons button.move"), command)


def bot_badges(page: Page, seats: int, level: int) -> None:
    for seat in range(seats):
        badge = page.locator(f".felt .seat[data-seat='{seat}'] .badge.bot")
        if seat == HUMAN:
            expect(badge).to_have_count(0)
        else:
            expect(badge).to_have_text(f"bot · level {level}")


@pytest.mark.parametrize("variant_id", sorted(TABLES))
def test_a_person_plays_a_whole_game_against_bots_from_the_lobby(
    base: str, http: httpx.Client, page: Page, variant_id: str
) -> None:
    variant = next(v for v in http.get("/variants").json() if v["id"] == variant_id)
    seats, settings, _ = TABLES[variant_id]
    game_id, level = start_from_lobby(page, base, variant)
    token = page.evaluate("sessionStorage.getItem('cardledger-token')")
    auth = {"Authorization": f"Bearer {token}"}
    public = http.get(f"/games/{game_id}").raise_for_status().json()
    assert public["seat_count"] == seats
    bots = [seat["bot"] and seat["bot"]["level"] for seat in public["seats"]]
    assert bots == [None] + [level] * (seats - 1)
    for name, value in settings.items():
        assert str(public["options"][name]) == value
    bot_badges(page, seats, level)
    rng = random.Random(variant_id)
    made: list[str] = []
    while view := my_turn(page, http, game_id, auth):
        assert len(made) < MOVES, f"{variant_id} took more than {MOVES} moves"
        command = any_move(view, rng)
        before = str(page.locator("body").get_attribute("data-my-version"))
        click_move(page, view, command)
        expect(page.locator("body")).not_to_have_attribute("data-my-version", before)
        made.append(command["type"])
        if len(made) == 3:
            screenshot(page, f"alone-{variant_id}")
    assert made, "the person never moved"
    expect(page.locator("#game-status")).to_have_text("finished")
    expect(page.locator(".felt .ending")).to_have_attribute("data-end-reason", "complete")
    bot_badges(page, seats, level)
    expect(page.locator("#verdict")).to_have_text("valid")  # the bots' moves re-run as recorded


def test_a_refusal_is_said_and_one_name_plays_as_one_player(
    base: str, http: httpx.Client, page: Page, console: Console
) -> None:
    """A name the service refuses is said in words and nothing is created; a second game under
    the same name in the same tab is played by the same player, and the lobby lists its bots."""
    console.expect(r"status of 422 .*/players")
    page.goto(f"{base}/")
    page.fill("#solo-name", "   ")
    page.select_option("#solo-variant", "heartbeat")
    page.click("#solo-start")
    expect(page.locator("#solo-message")).to_have_text("A name is 1 to 64 printable characters.")
    expect(page.locator("#solo-start")).to_be_enabled()
    tokens = []
    for variant in ("heartbeat", "one-up-one-down"):
        page.goto(f"{base}/")
        page.fill("#solo-name", "Ann")
        page.select_option("#solo-variant", variant)
        page.click("#solo-start")
        page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/watch$"))
        expect(page.locator("#whoami")).to_have_text(f"You are Ann, seat {HUMAN}.")
        tokens.append(page.evaluate("sessionStorage.getItem('cardledger-token')"))
    assert tokens[0] == tokens[1]
    game_id = page.url.split("/")[-2]
    page.goto(f"{base}/")
    expect(page.locator("#solo-name")).to_have_value("Ann")
    row = page.locator(f"#games tr[data-game-id='{game_id}'] td.players")
    levels = next(v for v in http.get("/variants").json() if v["id"] == "one-up-one-down")
    level = offered_level(levels["bot_levels"])
    expect(row).to_have_text(f"2/2: Ann, Bot 1 (bot · level {level})")
