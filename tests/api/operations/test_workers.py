"""`cardledger serve --workers 2`: two processes behind one port, one store, one game."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

import httpx

from service.http.app import INSTANCE_HEADER
from service.settings import Settings
from tests.support.servers import running_server, server_process, wait_until_ready, worker_pids
from tests.support.threads import wait_until


def fresh_connection(base: str) -> httpx.Client:
    """A client that opens a new connection per request, so the kernel picks a worker each
    time (a kept-alive connection would stay with one)."""
    return httpx.Client(base_url=base, timeout=10, limits=httpx.Limits(max_keepalive_connections=0))


def test_two_workers_serve_one_game_between_them(settings: Settings, tmp_path: Path) -> None:
    settings = Settings(database_url=settings.database_url, data_dir=tmp_path)
    with running_server(settings, tmp_path, workers=2) as base, fresh_connection(base) as http:
        tokens = [http.post("/players", json={"name": n}).json()["token"] for n in ("Ann", "Ben")]
        auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
        answered_by: list[str] = []
        games = 0
        while len(set(answered_by)) < 2 and games < 10:
            games += 1
            game_id = http.post(
                "/games", json={"variant": "open-hand", "seats": 2}, headers=auth[0]
            ).json()["game_id"]
            http.post(f"/games/{game_id}/join", headers=auth[1]).raise_for_status()
            while (public := http.get(f"/games/{game_id}").json())["status"] == "active":
                seat = public["to_act"][0]
                view = http.get(f"/games/{game_id}/view", headers=auth[seat]).json()
                command = next(c for c in view["legal_commands"] if c["type"] == "play")
                played = http.post(
                    f"/games/{game_id}/commands",
                    json=command,
                    headers={**auth[seat], "If-Match": str(public["version"])},
                )
                assert played.status_code == 200, played.text
                answered_by.append(played.headers[INSTANCE_HEADER])
            events = http.get(f"/games/{game_id}/events", params={"limit": 500}).json()["events"]
            assert [e["version"] for e in events] == list(range(1, len(events) + 1))
            assert http.get(f"/games/{game_id}/audit").json()["verdict"] == "valid"
        assert len(set(answered_by)) == 2, f"every command went to one worker: {answered_by}"
        # The read models count every game once, whichever worker projects them.
        finished = http.get("/games", params={"status": "finished"}).json()
        assert len(finished) == games
        rows = http.get("/leaderboard", params={"variant": "open-hand"}).json()[0]["rows"]
        assert sorted(row["games"] for row in rows) == [games, games]


def test_the_workers_end_with_their_supervisor_even_if_it_is_killed(tmp_path: Path) -> None:
    """A worker left behind would go on serving the port and holding the store's connections."""
    with server_process(Settings(data_dir=tmp_path), tmp_path, workers=2) as server:
        wait_until_ready(server.base, server.process)
        workers = worker_pids(server.process.pid)
        assert len(workers) == 2
        server.process.send_signal(signal.SIGKILL)  # no chance to stop its workers itself
        wait_until(lambda: not any(alive(pid) for pid in workers), "the workers ended")


def test_a_worker_that_stops_answering_is_replaced_and_the_log_says_why(tmp_path: Path) -> None:
    options = ["--worker-timeout", "3"]
    with server_process(
        Settings(data_dir=tmp_path), tmp_path, workers=2, options=options
    ) as server:
        wait_until(lambda: worker_pids(server.process.pid), "a worker started")
        deaf = worker_pids(server.process.pid)[0]
        with contextlib.suppress(ProcessLookupError):  # if it died starting, the log says so too
            os.kill(deaf, signal.SIGSTOP)  # alive, but it answers no health check
        explained = f"Child process [{deaf}] died: it ended, or it did not answer"
        wait_until(lambda: explained in server.log.read_text(), "the supervisor said why")
        line = next(x for x in server.log.read_text().splitlines() if explained in x)
        assert "within 3 s" in line
        assert "raise --worker-timeout or CARDLEDGER_WORKER_TIMEOUT (now 3 s)" in line
        assert not alive(deaf)


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped by init, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False
