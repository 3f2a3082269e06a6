"""The crash ledger: bots write while the server is killed (SIGKILL) and restarted again and
again; afterwards every command the server acknowledged must be in the log at the version and
chain head its answer gave, and every game's chain must be intact.
"""

from __future__ import annotations

import itertools
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import msgspec

from service.settings import Settings
from tests.support.servers import free_port, start_process, wait_until_ready


class Receipt(msgspec.Struct, frozen=True):
    game_id: str
    version: int
    chain_head: str


class Outcome(msgspec.Struct, kw_only=True):
    acknowledged: int = 0
    lost: int = 0
    broken_chains: int = 0
    kills: int = 0
    games: int = 0


class Server:
    """`cardledger serve` on a fixed port, killed and started again on demand."""

    def __init__(self, settings: Settings, data_dir: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "CARDLEDGER_DATA_DIR": str(data_dir), "CARDLEDGER_LIMITS": "off"}
        self.env.pop("CARDLEDGER_DATABASE_URL", None)
        if settings.database_url:
            self.env["CARDLEDGER_DATABASE_URL"] = settings.database_url
        self.log = data_dir / f"server-{self.port}.log"  # every start's output, one after another
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "service.tools.cli", "serve", "--port", str(self.port)]
        self.process = start_process(command, env=self.env, log=self.log)
        wait_until_ready(self.base, self.process)

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None


class Answer(NamedTuple):
    at: float  # time.monotonic() when it came
    status: int  # 0: no answer (the connection failed, or the client's timeout ran out)
    code: str  # a problem's code, or ""
    took: float  # seconds from sending the request to its answer (or failure)
    command: bool  # a POST of a command, not one of the reads around it


def bot(
    base: str,
    stop: threading.Event,
    receipts: list[Receipt],
    lock: threading.Lock,
    answers: list[Answer] | None = None,
    timeout: float = 5,
) -> None:
    """Plays 2-seat Open Hand games until told to stop, keeping every acknowledged answer (and
    with ``answers``, when each request of a game in play was answered, how and how slowly).
    ``timeout``: how long the client waits for an answer before it gives up."""
    with httpx.Client(base_url=base, timeout=timeout) as http:
        while not stop.is_set():
            try:
                tokens = [http.post("/players", json={"name": "bot"}).json()["token"] for _ in "ab"]
                auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
                game_id = http.post(
                    "/games", json={"variant": "open-hand", "seats": 2}, headers=auth[0]
                ).json()["game_id"]
                http.post(f"/games/{game_id}/join", headers=auth[1]).raise_for_status()
                play(http, game_id, auth, stop, receipts, lock, answers)
            except (httpx.HTTPError, ValueError, KeyError):
                time.sleep(0.05)  # the server is down, or the game was lost with it: start over


def play(
    http: httpx.Client,
    game_id: str,
    auth: list[dict[str, str]],
    stop: threading.Event,
    receipts: list[Receipt],
    lock: threading.Lock,
    answers: list[Answer] | None = None,
    pace: float = 0.0,
) -> None:
    """Plays the game to its end (or ``stop``), a move each ``pace`` seconds at most, going on
    with the same game through the server's or the store's outages."""

    def ask(method: str, url: str, command: bool = False, **options: Any) -> httpx.Response:
        began = time.monotonic()
        try:
            answer = http.request(method, url, **options)
        except httpx.TransportError:
            if answers is not None:
                now = time.monotonic()
                answers.append(Answer(now, 0, "", now - began, command))
            raise
        if answers is not None:
            failed = answer.status_code >= 400 and answer.headers.get("content-type", "")
            code = answer.json().get("code", "") if failed and "json" in failed else ""
            now = time.monotonic()
            answers.append(Answer(now, answer.status_code, code, now - began, command))
        return answer

    while not stop.wait(pace):
        try:
            public = ask("GET", f"/games/{game_id}").raise_for_status().json()
            if public["status"] != "active":
                return
            seat = public["to_act"][0]
            view = ask("GET", f"/games/{game_id}/view", headers=auth[seat])
            moves = [
                c for c in view.raise_for_status().json()["legal_commands"] if c["type"] == "play"
            ]
            if not moves:
                continue  # the public read was older than the view: read again
            path = f"/games/{game_id}/commands"
            answer = ask("POST", path, command=True, json=moves[0], headers=auth[seat])
        except (httpx.TransportError, httpx.HTTPStatusError):
            time.sleep(0.05)  # down: the same game goes on once the server or store is back
            continue
        if answer.status_code == 200:
            body = answer.json()
            with lock:
                receipts.append(Receipt(game_id, body["version"], body["chain_head"]))


def check(base: str, receipts: list[Receipt], outcome: Outcome) -> None:
    """Every acknowledged receipt in the log; every game's chain intact."""
    by_game: dict[str, list[Receipt]] = {}
    for receipt in receipts:
        by_game.setdefault(receipt.game_id, []).append(receipt)
    outcome.acknowledged, outcome.games = len(receipts), len(by_game)
    with httpx.Client(base_url=base, timeout=30) as http:
        for game_id, kept in by_game.items():
            events = http.get(f"/games/{game_id}/events", params={"limit": 500}).json()["events"]
            hashes = {event["version"]: event["hash"] for event in events}
            outcome.lost += sum(hashes.get(r.version) != r.chain_head for r in kept)
            chained = all(b["prev_hash"] == a["hash"] for a, b in itertools.pairwise(events))
            numbered = [e["version"] for e in events] == list(range(1, len(events) + 1))
            outcome.broken_chains += not (chained and numbered)


def run(settings: Settings, data_dir: Path, *, kills: int, bots: int, seed: int) -> Outcome:
    rng = random.Random(seed)
    server = Server(settings, data_dir)
    server.start()
    receipts: list[Receipt] = []
    lock = threading.Lock()
    stop = threading.Event()
    threads = [
        threading.Thread(target=bot, args=(server.base, stop, receipts, lock), daemon=True)
        for _ in range(bots)
    ]
    for thread in threads:
        thread.start()
    outcome = Outcome()
    try:
        for _ in range(kills):
            time.sleep(rng.uniform(0.3, 1.5))  # under load, at a moment nobody chose
            server.kill()
            outcome.kills += 1
            server.start()
        time.sleep(0.5)
    finally:
        stop.set()
        for thread in threads:
            thread.join(30)
    try:
        check(server.base, receipts, outcome)
    finally:
        server.kill()
    return outcome
