"""A test client that knows its players, and the fixtures that give one per test and store."""

from __future__ import annotations

import hashlib
import json
import random
import re
import time
from collections.abc import Callable
from typing import Any

from litestar.testing import TestClient

from domain.chain import PREFIX
from service.application import Cardledger
from service.live.streams import Live

# A short game of every variant (seats, options): whole games over the API in a few seconds.
SHORT_GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "open-hand": (4, {}),
    "heartbeat": (3, {"pressure_seconds": 10}),
    "one-up-one-down": (3, {"max_plays": 60, "challenge_seconds": 0}),
    "cancellation-hearts": (6, {"target": 50}),
    "double-heartbeat": (3, {"hands": 1}),
}


MAX_MOVES = 5_000  # more than any SHORT_GAMES game takes
LOG_WAIT_SECONDS = 10.0  # for the sequencer to sign a checkpoint over a new entry


class Api:
    """A thin test client that knows the players it registered."""

    def __init__(self, client: TestClient[Any], ledger: Cardledger) -> None:
        self.client = client
        self.ledger = ledger
        self.tokens: list[str] = []
        self.log_receipts: dict[str, dict[str, Any]] = {}  # game id: its receipt from the log

    @property
    def live(self) -> Live:
        """The app's live feeds and streams."""
        live: Live = self.client.app.state.live
        return live

    def register(self, count: int) -> list[str]:
        for _ in range(count):
            response = self.client.post("/players", json={"name": f"Player {len(self.tokens)}"})
            assert response.status_code == 201, response.text
            self.tokens.append(response.json()["token"])
        return self.tokens

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def admin(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.ledger.settings.admin_token}"}

    def create(self, seats: int, options: dict[str, Any] | None = None, **extra: Any) -> str:
        body = {"variant": "open-hand", "seats": seats, **extra}
        if options is not None:
            body["options"] = options
        response = self.client.post("/games", json=body, headers=self.auth(0))
        assert response.status_code == 201, response.text
        return str(response.json()["game_id"])

    def started(self, seats: int, options: dict[str, Any] | None = None) -> str:
        """A running game with players 0..seats-1 seated in order."""
        if len(self.tokens) < seats:
            self.register(seats - len(self.tokens))
        game_id = self.create(seats, options)
        for seat in range(1, seats):
            response = self.client.post(f"/games/{game_id}/join", headers=self.auth(seat))
            assert response.status_code == 200, response.text
        return game_id

    def view(self, game_id: str, seat: int | None = None) -> dict[str, Any]:
        headers = self.auth(seat) if seat is not None else {}
        response = self.client.get(f"/games/{game_id}/view", headers=headers)
        assert response.status_code == 200, response.text
        return dict(response.json())

    def command(self, game_id: str, seat: int, body: Any, **headers: str) -> Any:
        return self.client.post(
            f"/games/{game_id}/commands", json=body, headers={**self.auth(seat), **headers}
        )

    def events(
        self, game_id: str, seat: int | None = None, *, headers: dict[str, str] | None = None
    ) -> list[dict[str, Any]]:
        if headers is None:
            headers = self.auth(seat) if seat is not None else {}
        after = 0
        collected: list[dict[str, Any]] = []
        while True:
            page = self.client.get(
                f"/games/{game_id}/events?after={after}&limit=50", headers=headers
            ).json()
            collected += page["events"]
            if page["next_after"] >= page["head_version"] or not page["events"]:
                return collected
            after = page["next_after"]

    def play_to_end(self, game_id: str) -> dict[str, Any]:
        """Every seat sends the first card of its legal commands until the game is over."""
        while True:
            public = self.view(game_id)
            if public["status"] != "active":
                return public
            self.play_once(game_id, public)

    def keep_log_receipt(self, game_id: str, entries: int) -> dict[str, Any]:
        """What a player keeps from the witnessed log once the game's ``entries`` entries (1
        when seated, 2 when it has ended) are under a signed checkpoint: ``GET
        /games/{id}/log``, each entry's index and inclusion proof and the checkpoint."""
        give_up = time.monotonic() + LOG_WAIT_SECONDS
        while True:
            response = self.client.get(f"/games/{game_id}/log")
            if response.status_code == 200:
                receipt = dict(response.json())
                logged = receipt["entries"]
                if len(logged) >= entries and all(e["inclusion_proof"] is not None for e in logged):
                    self.log_receipts[game_id] = receipt
                    return receipt
            assert time.monotonic() < give_up, f"no receipt of {entries} entries: {response.text}"
            time.sleep(0.02)

    def play_once(self, game_id: str, public: dict[str, Any] | None = None) -> None:
        """The first seat to act plays the first card of its legal commands."""
        seat = (public or self.view(game_id))["to_act"][0]
        mine = self.view(game_id, seat)
        play = next(c for c in mine["legal_commands"] if c["type"] == "play")
        response = self.command(game_id, seat, play)
        assert response.status_code == 200, response.text

    def start(self, variant: str) -> str:
        """A running game of ``variant`` at its SHORT_GAMES size, players 0.. seated in order."""
        seats, options = SHORT_GAMES[variant]
        if len(self.tokens) < seats:
            self.register(seats - len(self.tokens))
        game_id = self.create(seats, options, variant=variant)
        for seat in range(1, seats):
            response = self.client.post(f"/games/{game_id}/join", headers=self.auth(seat))
            assert response.status_code == 200, response.text
        return game_id

    def play_listed(self, game_id: str, rng: random.Random) -> dict[str, Any]:
        """A generic client: a seat the game waits for sends one of its ``legal_commands``,
        drawn uniformly (never ``leave`` or ``vote_cancel``) and exactly as listed, until the
        game is over; the final public view."""
        for _ in range(MAX_MOVES):
            public = self.view(game_id)
            if public["status"] != "active":
                return public
            assert public["to_act"], "only the server could move: no short game waits for it"
            seat = rng.choice(public["to_act"])
            mine = self.view(game_id, seat)
            listed = [
                c for c in mine["legal_commands"] if c["type"] not in ("leave", "vote_cancel")
            ]
            assert listed, (
                f"seat {seat} is awaited, listed nothing to send: {mine['legal_commands']}"
            )
            response = self.command(game_id, seat, rng.choice(listed))
            assert response.status_code == 200, response.text
        raise AssertionError(f"game {game_id} still active after {MAX_MOVES} moves")

    def pages(
        self,
        url: str,
        headers: dict[str, str] | None = None,
        *,
        between: Callable[[], object] = lambda: None,
    ) -> list[Any]:
        """Every page from ``url`` on, following each Link rel="next" to the last page (which
        has none); ``between`` runs after each page but the last."""
        pages: list[Any] = []
        next_url: str | None = url
        while next_url is not None:
            assert len(pages) < 100, f"{url}: the pages never end"
            response = self.client.get(next_url, headers=headers)
            assert response.status_code == 200, response.text
            pages.append(response)
            next_url = next_page(response)
            if next_url is not None:
                between()
        return pages


def next_page(response: Any) -> str | None:
    """The URL a paged answer names for its next page (its Link rel="next"), or None."""
    link = response.headers.get("Link")
    if link is None:
        return None
    found = re.fullmatch(r'<(/[^>]*)>; rel="next"', link)
    assert found, f"not a relative next link: {link!r}"
    return found[1]


def served_event_hash(game_id: str, event: dict[str, Any], prev_hash: str) -> str:
    """An event's hash per docs/fairness.md, computed from its JSON as served (the spec, written
    again independently of domain.chain)."""
    body = {
        "actor": event["actor"],
        "command": event["command"],
        "command_id": event["command_id"],
        "game_id": game_id,
        "payload": event["payload"],
        "timestamp": event["timestamp"],
        "version": event["version"],
    }
    if "expiry" in event:  # only an expiry's events carry the key
        body["expiry"] = event["expiry"]
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(PREFIX + prev_hash.encode() + b"\x00" + canonical.encode()).hexdigest()
