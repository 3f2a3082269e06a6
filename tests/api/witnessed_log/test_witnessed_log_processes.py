"""Two `cardledger serve` processes on one store make one witnessed log (issue 25): games
created through both, the sequencing process (the first started) killed midway so its leader
lock moves to the other, and the log the survivor serves holds every game's creation once,
indexes without a gap, its tiles agree with its checkpoint, and that checkpoint is consistent
with one signed before the kill."""

from __future__ import annotations

import base64
import contextlib
import os
import signal
import time
from pathlib import Path

import httpx

from projections.transparency.entries import GameCreatedEntry, GameEndedEntry, decode
from projections.transparency.merkle import root, verify_consistency
from projections.transparency.notes import Checkpoint, Policy, SignedNote, Verifier
from projections.transparency.tiles import (
    WIDTH,
    bundle_entries,
    tile_path,
    tile_width,
    tiled_nodes,
)
from service.application import Cardledger
from service.settings import Settings
from tests.support.servers import server_process, wait_until_ready
from tests.support.threads import BOUND


def checkpoint(http: httpx.Client, at_least: int) -> Checkpoint:
    key = Verifier.parse(http.get("/log/key").text)
    give_up = time.monotonic() + BOUND
    while True:
        response = http.get("/log/checkpoint")
        if response.status_code == 200:
            note = SignedNote.parse(response.text)
            Policy(key, (), 0).accept(note)
            if note.checkpoint.size >= at_least:
                return note.checkpoint
        assert time.monotonic() < give_up, f"no checkpoint of {at_least}"
        time.sleep(0.05)


def new_games(http: httpx.Client, auth: dict[str, str], count: int) -> list[str]:
    """``count`` games, every third cancelled: 4 entries for 3 games."""
    made = []
    for n in range(count):
        created = http.post("/games", json={"variant": "open-hand", "seats": 2}, headers=auth)
        assert created.status_code == 201, created.text
        made.append(created.json()["game_id"])
        if n % 3 == 2:
            cancelled = http.post(f"/games/{made[-1]}/cancel", headers=auth)
            assert cancelled.status_code == 200, cancelled.text
    return made


def test_two_processes_make_one_log_and_a_killed_sequencer_is_replaced(
    settings: Settings, tmp_path: Path
) -> None:
    settings = Settings(database_url=settings.database_url, data_dir=tmp_path)
    Cardledger(settings).close()  # tables made once, before the processes start together
    with contextlib.ExitStack() as running:
        first = running.enter_context(server_process(settings, tmp_path))
        wait_until_ready(first.base, first.process)
        one = running.enter_context(httpx.Client(base_url=first.base, timeout=10))
        checkpoint(one, 0)  # the first process sequences: it started alone and has signed
        second = running.enter_context(server_process(settings, tmp_path))
        wait_until_ready(second.base, second.process)
        with httpx.Client(base_url=second.base, timeout=10) as two:
            assert one.get("/log/key").text == two.get("/log/key").text, "one key file"
            token = one.post("/players", json={"name": "Ann"}).json()["token"]
            auth = {"Authorization": f"Bearer {token}"}
            games = new_games(one, auth, 6) + new_games(two, auth, 6)
            older = checkpoint(two, 16)
            os.killpg(first.process.pid, signal.SIGKILL)  # the sequencer dies
            first.process.wait(BOUND)
            games += new_games(two, auth, 6)
            newer = checkpoint(two, 24)
            assert newer.size == 24
            proof = two.get(f"/log/consistency?from={older.size}&to={newer.size}").json()
            verify_consistency(
                older.size,
                newer.size,
                older.root,
                newer.root,
                [base64.b64decode(hashed) for hashed in proof["proof"]],
            )

            def fetch(level: int, index: int) -> bytes:
                path = tile_path(level, index, tile_width(newer.size, level, index))
                return two.get(f"/log/{path}").content

            assert root(tiled_nodes(fetch), newer.size) == newer.root
            assert newer.size < WIDTH
            bundle = two.get(f"/log/tile/entries/000.p/{newer.size}").content
            entries = [decode(data) for data in bundle_entries(bundle)]
    created = [str(e.game_id) for e in entries if isinstance(e, GameCreatedEntry)]
    ended = [str(e.game_id) for e in entries if isinstance(e, GameEndedEntry)]
    assert sorted(created) == sorted(games), "every game's creation once"
    assert sorted(ended) == sorted(games[2::3]), "every cancellation once"
    at = {(type(e).__name__, str(e.game_id)): index for index, e in enumerate(entries)}
    for game_id in ended:
        assert at["GameCreatedEntry", game_id] < at["GameEndedEntry", game_id], game_id
