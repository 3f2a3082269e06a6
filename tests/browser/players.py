"""Games for the browser tests: named players (CJK names among them) and bots over HTTP."""

from __future__ import annotations

import random
from typing import Any

import httpx

NAMES = ["张伟", "Ann", "李娜", "Ben", "王芳", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


class Game:
    """A started game whose seats are players named from NAMES; bots play any seat."""

    def __init__(
        self, http: httpx.Client, variant: str, seats: int, options: dict[str, Any]
    ) -> None:
        self.http = http
        self.tokens = []
        for seat in range(seats):
            body = {"name": NAMES[seat % len(NAMES)]}
            self.tokens.append(http.post("/players", json=body).raise_for_status().json()["token"])
        game = {"variant": variant, "seats": seats, "options": options}
        created = http.post("/games", json=game, headers=self.auth(0)).raise_for_status()
        self.game_id = str(created.json()["game_id"])
        for seat in range(1, seats):
            http.post(f"/games/{self.game_id}/join", headers=self.auth(seat)).raise_for_status()

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def public(self) -> dict[str, Any]:
        return dict(self.http.get(f"/games/{self.game_id}").raise_for_status().json())

    def step(self, rng: random.Random, skip: int | None = None) -> bool:
        """One random legal move of a seat the game waits for (never ``skip``, the human);
        False once the game is over or only ``skip`` can move."""
        public = self.public()
        if public["status"] != "active":
            return False
        waiting = [seat for seat in public["to_act"] if seat != skip]
        if not waiting:
            return not public["to_act"]  # only the server can move: a deadline
        seat = rng.choice(waiting)
        mine = self.http.get(f"/games/{self.game_id}/view", headers=self.auth(seat)).json()
        moves = [c for c in mine["legal_commands"] if c["type"] not in ("leave", "vote_cancel")]
        if moves:  # sent exactly as listed, as any client may
            body = rng.choice(moves)
            self.http.post(f"/games/{self.game_id}/commands", json=body, headers=self.auth(seat))
        return True

    def play(self, rng: random.Random, steps: int | None = None, skip: int | None = None) -> None:
        """Bots move until the game is over, ``steps`` moves are made or only ``skip`` can move."""
        done = 0
        while (steps is None or done < steps) and self.step(rng, skip):
            done += 1

    def head(self) -> int:
        return int(self.public()["version"])


def finished_heartbeat(http: httpx.Client, seed: int) -> Game:
    """A two-seat Heartbeat game without tempo cards, played to its end by bots (quick, and
    finished: ratings, results and a rematch to show)."""
    game = Game(http, "heartbeat", 2, {"tempo_deck": 0})
    game.play(random.Random(seed))
    assert game.public()["status"] == "finished"
    return game
