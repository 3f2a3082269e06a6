"""Playing from the page: a seated player enters their token and plays whole games by clicking,
the other seats played by bots over HTTP."""

from __future__ import annotations

import random

import httpx
from playwright.sync_api import Page, expect

from tests.browser.conftest import Console, screenshot, select
from tests.browser.players import Game

HUMAN = 0


def sit_down(page: Page, base: str, game: Game, seat: int = HUMAN) -> None:
    """Opens the game and enters that seat's token: the page shows that seat's side."""
    page.goto(f"{base}/games/{game.game_id}/watch")
    page.fill("#token", game.tokens[seat])
    page.click("#token-form button[type=submit]")
    expect(page.locator("#whoami")).to_contain_text(f"seat {seat}.")
    expect(page.locator("#perspective")).to_have_value(f"seat:{seat}")
    assert page.evaluate("sessionStorage.getItem('cardledger-token')") == game.tokens[seat]
    assert game.tokens[seat] not in page.url


def my_turn(page: Page, game: Game, rng: random.Random) -> bool:
    """Bots play until the game waits for the human (True) or is over (False); then the page
    has caught up with the game."""
    game.play(rng, skip=HUMAN)
    public = game.public()
    expect(page.locator("body")).to_have_attribute("data-my-version", str(public["version"]))
    return bool(public["status"] == "active")


def moved(page: Page, before: str) -> None:
    expect(page.locator("body")).not_to_have_attribute("data-my-version", before)


def test_a_whole_open_hand_game_played_by_clicking(
    base: str, http: httpx.Client, page: Page, console: Console
) -> None:
    game = Game(http, "open-hand", 3, {})
    sit_down(page, base, game)
    expect(page.locator("#whoami")).to_contain_text("You are 张伟, seat 0")
    rng = random.Random(11)
    assert my_turn(page, game, rng)
    # Another device of the same player moves first: the page's click is refused, in words.
    console.expect(r"status of 409 \(Conflict\).*/commands")
    page.uncheck("#live")
    mine = http.get(f"/games/{game.game_id}/view", headers=game.auth(HUMAN)).json()
    play = next(c for c in mine["legal_commands"] if c["type"] == "play")
    http.post(f"/games/{game.game_id}/commands", json=play, headers=game.auth(HUMAN))
    page.locator("#hand .card.playable").first.click()
    expect(page.locator("#play-message")).to_have_text("It is not your turn to play.")
    page.check("#live")
    played = 1
    while my_turn(page, game, rng):
        before = str(page.locator("body").get_attribute("data-my-version"))
        cards = page.locator("#hand .card.playable")
        expect(cards).not_to_have_count(0)
        if played == 3:
            screenshot(page, "open-hand-playing")
        cards.nth(rng.randrange(cards.count())).click()
        moved(page, before)
        played += 1
    assert played == 5
    expect(page.locator("#game-status")).to_have_text("finished")
    expect(page.locator("#hand .card")).to_have_count(0)
    page.locator("#play-message button").click()  # check the last receipt against the log
    expect(page.locator("#receipt-result")).to_have_attribute("data-result", "pass")
    expect(page.locator("#verdict")).to_have_text("valid")


def test_a_whole_one_up_one_down_game_played_by_clicking(
    base: str, http: httpx.Client, page: Page
) -> None:
    game = Game(http, "one-up-one-down", 3, {"max_plays": 30, "challenge_seconds": 0})
    sit_down(page, base, game)
    rng = random.Random(12)
    kinds: set[str] = set()
    while my_turn(page, game, rng):
        before = str(page.locator("body").get_attribute("data-my-version"))
        answers = page.locator(
            "#moves button[data-command*='challenge'], #moves button[data-command*='decline']"
        )
        if answers.count():
            answers.nth(rng.randrange(answers.count())).click()
        else:
            cards = page.locator("#hand .card.playable")
            expect(cards).not_to_have_count(0)
            cards.nth(rng.randrange(cards.count())).click()
            ranks = page.locator("#moves .alternatives button.alternative")
            if ranks.count():  # a face-down play: declare a rank
                if "CardPlayedFaceDown" not in kinds:
                    screenshot(page, "one-up-one-down-declaring")
                ranks.nth(rng.randrange(ranks.count())).click()
        moved(page, before)
        kinds.add(last_kind(http, game, int(before)))
    expect(page.locator("#game-status")).to_have_text("finished")
    expect(page.locator("#verdict")).to_have_text("valid")
    assert {"CardPlayed", "CardPlayedFaceDown"} <= kinds, kinds
    assert kinds & {"Challenged", "ChallengeDeclined"}, kinds


def last_kind(http: httpx.Client, game: Game, after: int) -> str:
    """The type of the human's event recorded after version ``after``."""
    events = http.get(f"/games/{game.game_id}/events?after={after}&limit=50").json()["events"]
    mine = [e for e in events if e["actor"] == f"seat:{HUMAN}"]
    return str(mine[0]["type"]) if mine else "none"


def test_passes_burials_and_combinations_are_picked_card_by_card(
    base: str, http: httpx.Client, page: Page
) -> None:
    hearts = Game(http, "cancellation-hearts", 6, {"target": 50})
    sit_down(page, base, hearts, 0)
    hand = http.get(f"/games/{hearts.game_id}/view", headers=hearts.auth(0)).json()["hand"]
    select(page, hand[:3])
    expect(page.locator("#hand .card.selected")).to_have_count(3)
    page.locator("#moves button.primary", has_text="Pass").click()
    expect(page.locator(".felt .seat[data-seat='0'] .badge", has_text="passed")).to_be_visible()
    assert hearts.public()["table"]["passed"][0] is True

    climbing = Game(http, "double-heartbeat", 3, {"hands": 1})
    dealer = climbing.public()["table"]["dealer"]
    sit_down(page, base, climbing, dealer)
    hand = http.get(f"/games/{climbing.game_id}/view", headers=climbing.auth(dealer)).json()
    select(page, hand["hand"][:2])
    page.locator("#moves button.primary", has_text="Bury").click()
    expect(page.locator("#description")).to_contain_text("buries 2 cards")
    hand = http.get(f"/games/{climbing.game_id}/view", headers=climbing.auth(dealer)).json()
    ranks: dict[str, list[str]] = {}
    for card in hand["hand"]:
        ranks.setdefault(card[:-1], []).append(card)
    # Some rank has 3 cards (32 cards, 13 ranks): two of them that are not the pair the service
    # lists for it, so the page's table module, not a plain match, makes them a pair.
    pair = next(cards[1:3] for cards in ranks.values() if len(cards) >= 3)
    listed = [c["cards"] for c in hand["legal_commands"] if c.get("combination") == "pair"]
    assert sorted(pair) not in map(sorted, listed)
    select(page, pair)
    page.locator("#moves button.primary", has_text="Play pair").click()
    expect(page.locator(".felt .middle .combination")).to_contain_text("pair of")
    played = http.get(f"/games/{climbing.game_id}/events?after=0&limit=100").json()["events"][-1]
    assert played["type"] == "CombinationPlayed"
    assert sorted(played["payload"]["cards"]) == sorted(pair)
    screenshot(page, "double-heartbeat-playing")
