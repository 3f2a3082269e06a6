"""Deadlines across a failover: One Up One Down games whose challenge windows close by the
server's deadline watcher at moments before, during and after the primary fails. Each window
must close exactly once (a watcher that lost its place would miss one; two watchers, or one that
read an event twice, would close one twice), never early, and soon after writes are back.
"""

from __future__ import annotations

from datetime import datetime

import httpx
import msgspec

from tests.support.threads import BOUND

# Seconds from opening a window to its deadline; the drill fails the primary about a second
# after the windows open, and writes come back 5-10 s later.
WINDOW_SECONDS = (3, 6, 9, 14, 20)


class Window(msgspec.Struct, frozen=True):
    game_id: str
    deadline: datetime


class Closings(msgspec.Struct, kw_only=True):
    windows: int = 0
    closed_once: int = 0  # windows closed by exactly one server event, not before the deadline
    latest: float = 0.0  # seconds: the latest closing after its deadline
    # Each window's deadline and its closing, in seconds from the fault (None: not closed once)
    timeline: list[tuple[float, float | None]] = msgspec.field(default_factory=list)

    def figure(self) -> str:
        moments = ", ".join(
            f"{due:+.1f}->{'?' if closed is None else f'{closed:+.1f}'}"
            for due, closed in self.timeline
        )
        return (
            f"deadlines {self.closed_once} of {self.windows} closed once (s from the fault,"
            f" due->closed: {moments})"
        )


def open_windows(base: str) -> list[Window]:
    """A 2-seat game per entry of WINDOW_SECONDS, played until a card is laid face down: its
    challenge window is then open until the deadline, and nobody answers it."""
    with httpx.Client(base_url=base, timeout=BOUND) as http:
        return [open_window(http, seconds) for seconds in WINDOW_SECONDS]


def open_window(http: httpx.Client, seconds: int) -> Window:
    tokens = [http.post("/players", json={"name": n}).json()["token"] for n in "ab"]
    auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
    game = {"variant": "one-up-one-down", "seats": 2, "options": {"challenge_seconds": seconds}}
    game_id = str(http.post("/games", json=game, headers=auth[0]).json()["game_id"])
    http.post(f"/games/{game_id}/join", headers=auth[1]).raise_for_status()
    while True:
        seat = http.get(f"/games/{game_id}").raise_for_status().json()["to_act"][0]
        view = http.get(f"/games/{game_id}/view", headers=auth[seat]).raise_for_status().json()
        commands = view["legal_commands"]
        down = [c for c in commands if c["type"] == "play_down"]
        command = down[0] if down else next(c for c in commands if c["type"] == "play_up")
        answer = http.post(f"/games/{game_id}/commands", json=command, headers=auth[seat])
        answer.raise_for_status()
        if down:
            return Window(game_id, datetime.fromisoformat(answer.json()["view"]["deadline"]))


def closings(base: str, windows: list[Window], fault_at: datetime) -> Closings:
    """How the windows closed, from each game's log."""
    result = Closings(windows=len(windows))
    with httpx.Client(base_url=base, timeout=BOUND) as http:
        for window in windows:
            events = http.get(f"/games/{window.game_id}/events", params={"limit": 500}).json()
            closed = [e for e in events["events"] if e["type"] == "ChallengeWindowClosed"]
            due = (window.deadline - fault_at).total_seconds()
            if len(closed) != 1 or closed[0]["actor"] != "server":
                result.timeline.append((due, None))
                continue
            at = datetime.fromisoformat(closed[0]["timestamp"])
            result.timeline.append((due, (at - fault_at).total_seconds()))
            late = (at - window.deadline).total_seconds()
            if late >= 0:
                result.closed_once += 1
                result.latest = max(result.latest, late)
    return result
