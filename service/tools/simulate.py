"""`cardledger simulate`: bots play whole games over the REST API, as any client would.

Each bot only ever sends one of its seat's `legal_commands` (never leave or vote_cancel), so a
finished run also shows that a generic client can finish every variant.
"""

from __future__ import annotations

import random
import uuid
from datetime import datetime
from typing import Any

import httpx

from domain import game
from domain.aggregate import GameAggregate


def seated_game(
    variant: str, seats: int, options: dict[str, Any], rng: random.Random, now: datetime
) -> GameAggregate:
    """A game in process, every seat taken by players p0..pN-1, its seed drawn from ``rng``."""
    game_id = uuid.UUID(int=rng.getrandbits(128), version=4)
    events = game.create(
        game_id=str(game_id),
        variant_id=variant,
        seat_count=seats,
        options=options,
        creator_id="p0",
        creator_name="P0",
        client_seed=str(rng.random()),
        seed=rng.randbytes(32),
    )
    aggregate = GameAggregate.open(game_id, events, actor="seat:0", command_id="c0", now=now)
    for seat in range(1, seats):
        aggregate.join(
            player_id=f"p{seat}", name=f"P{seat}", client_seed="", command_id=f"j{seat}", now=now
        )
    return aggregate


class Table:
    """One game played by bots, each seat with its own registered player and token."""

    def __init__(self, http: httpx.Client, variant: str, seats: int, options: dict[str, Any]):
        self.http = http
        self.tokens = [
            http.post("/players", json={"name": f"bot {seat}"}).raise_for_status().json()["token"]
            for seat in range(seats)
        ]
        body = {"variant": variant, "seats": seats, "options": options}
        created = http.post("/games", json=body, headers=self.auth(0)).raise_for_status()
        self.game_id = str(created.json()["game_id"])
        for seat in range(1, seats):
            http.post(f"/games/{self.game_id}/join", headers=self.auth(seat)).raise_for_status()

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def step(self, rng: random.Random) -> bool:
        """One random legal command from a seat the game waits for; False once it is over."""
        public = self.http.get(f"/games/{self.game_id}").raise_for_status().json()
        if public["status"] != "active":
            return False
        if not public["to_act"]:
            return True  # only the server can move (a deadline): wait for it
        seat = rng.choice(public["to_act"])
        mine = self.http.get(f"/games/{self.game_id}/view", headers=self.auth(seat)).json()
        choices = [c for c in mine["legal_commands"] if c["type"] not in ("leave", "vote_cancel")]
        if choices:
            self.http.post(
                f"/games/{self.game_id}/commands", json=rng.choice(choices), headers=self.auth(seat)
            )
        return True


def simulate(
    base_url: str, variant: str, seats: int, games: int, options: dict[str, Any], seed: int
) -> list[dict[str, Any]]:
    """Play ``games`` games to the end; returns each game's id, scores, winners and audit."""
    rng = random.Random(seed)
    results = []
    with httpx.Client(base_url=base_url, timeout=30) as http:
        for _ in range(games):
            table = Table(http, variant, seats, options)
            while table.step(rng):
                pass
            summary = http.get(f"/games/{table.game_id}").json()
            verdict = http.get(f"/games/{table.game_id}/audit").json()["verdict"]
            results.append(
                {
                    "game_id": table.game_id,
                    "status": summary["status"],
                    "scores": summary["scores"],
                    "winners": summary["winners"],
                    "audit": verdict,
                }
            )
    return results
