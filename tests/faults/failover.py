"""The failover drill: bots play through `serve --workers 2` on a pg_auto_failover cluster
(service/tools/cluster.py) while the primary's machine dies (fault "kill": its keeper and
PostgreSQL SIGKILLed at once) or its network is cut (fault "cut": each node runs on a host of
its own, a network namespace, and the primary's link goes down; it keeps running, unreachable,
and its link comes back once the service's figures are taken), or (fault "nodes") the service
runs as two API nodes on hosts of their own behind one address (a TCP balancer that passes over
a node that refuses) and one API node and the primary are SIGKILLed at once. Afterwards:

- every command the service acknowledged is in the log at the version and chain head its answer
  gave, and every game's chain is whole and numbered (nothing lost, nothing applied twice);
- no answer in between was a 5xx other than `503 store_unavailable`;
- writes came back within 15 s of the fault;
- a live stream of a game that was playing across the failover, resumed with Last-Event-ID as a
  client does, saw every event once, in order (the log's notification ids and the readers'
  positions survived the promotion);
- the lobby's read model caught up with the log (the projector went on from its position);
- challenge windows whose deadlines fall before, during and after the failover were each closed
  by the deadline watcher exactly once, never early (tests/faults/failover_deadlines.py);
- every answer, a 503 included, came within the store timeout and two seconds (the bots wait a
  minute: a hang shows as a late answer);
- the old primary rejoined as a standby (started again after a kill; by itself, demoted by
  pg_auto_failover, once its network is back after a cut).
"""

from __future__ import annotations

import argparse
import itertools
import socket
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from threading import Thread

import httpx
import msgspec
import psycopg

from service.settings import Settings
from service.tools.cluster import Cluster
from service.tools.hosts import Hosts
from tests.api.streams.test_stream import sse
from tests.faults import failover_deadlines
from tests.faults.api_nodes import API_NODES, api_nodes
from tests.faults.crash_ledger import Answer, Outcome, Receipt, bot, check, play
from tests.support.client import next_page
from tests.support.servers import (
    free_port,
    running_server,
)
from tests.support.threads import BOUND, finished, wait_until

WRITES_BACK_WITHIN = 15.0  # seconds, the bound
# Every answer within the store timeout plus a little (the issue: never a hang past the store
# timeout); the bots wait far longer than that, so that a hang shows as a slow answer.
ANSWER_SLACK = 2.0
CLIENT_TIMEOUT = 60.0
REJOIN_WITHIN = 180.0
FAULTS = {
    "kill": "primary SIGKILLed",
    "cut": "primary's network cut",
    "nodes": "an API node and the primary SIGKILLed (API nodes on hosts)",
}


class Drill(msgspec.Struct, kw_only=True):
    fault: str = "kill"
    acknowledged: int = 0
    lost: int = 0
    broken_chains: int = 0
    other_5xx: int = 0  # answers >= 500 that were not 503 store_unavailable
    unavailable: int = 0  # 503 store_unavailable answers
    no_answer: int = 0  # connections that failed
    slowest_answer: float = 0.0  # seconds, of any request the bots made while the games went on
    answer_bound: float = 0.0  # the store timeout plus ANSWER_SLACK
    late_answers: int = 0  # answers (or failures) that took longer than answer_bound
    seconds_without_writes: float = 0.0
    stream_events: int = 0
    stream_gaps: int = 0  # events a resumed stream skipped or repeated
    stream_resumes: int = 0
    stream_spans_failover: bool = False  # it had events from before the kill and after
    stream_ended: bool = False  # with the game
    stream_missing: int = 0  # the game's events it never showed
    lobby_caught_up: bool = False
    deadlines: failover_deadlines.Closings = msgspec.field(
        default_factory=failover_deadlines.Closings
    )
    rejoined: bool = False
    old_primary_state: str = ""  # as the monitor last heard it

    def ok(self) -> bool:
        return (
            self.acknowledged > 0
            and self.lost == self.broken_chains == self.other_5xx == self.stream_gaps == 0
            and self.late_answers == 0
            and self.seconds_without_writes < WRITES_BACK_WITHIN
            and self.stream_spans_failover
            and self.stream_ended
            and self.stream_missing == 0
            and self.lobby_caught_up
            and self.deadlines.windows > 0
            and self.deadlines.closed_once == self.deadlines.windows
            and self.deadlines.latest < WRITES_BACK_WITHIN
            and self.rejoined
        )

    def figure(self) -> str:
        return (
            f"{self.acknowledged} acks, {self.lost} lost, {self.broken_chains} broken chains,"
            f" {self.seconds_without_writes:.1f} s without writes, {self.unavailable} x 503,"
            f" {self.other_5xx} other 5xx, {self.no_answer} unanswered, slowest answer"
            f" {self.slowest_answer:.1f} s ({self.late_answers} over {self.answer_bound:g} s),"
            f" stream {self.stream_events} events"
            f" ({self.stream_resumes} resumes, {self.stream_gaps} gaps,"
            f" {self.stream_missing} missing{'' if self.stream_ended else ', never ended'}"
            f"{'' if self.stream_spans_failover else ', NOT across the failover'}),"
            f" lobby {'caught up' if self.lobby_caught_up else 'BEHIND'},"
            f" {self.deadlines.figure()},"
            f" old primary {'rejoined' if self.rejoined else 'NOT rejoined'}"
            f" ({self.old_primary_state})"
        )


@contextmanager
def cluster_in(folder: Path, *, hosts: Hosts | None = None) -> Iterator[Cluster]:
    cluster = Cluster(folder, three_free_ports(), hosts)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


def three_free_ports() -> int:
    """A base port whose next two are free too (the monitor's and the two nodes')."""
    for _ in range(100):
        base = free_port()
        if base < 65000 and all(is_free(base + step) for step in (1, 2)):
            return base
    raise RuntimeError("no three free ports in a row")


def is_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


class StreamWatcher(threading.Thread):
    """Follows one game's stream to its end, resuming with Last-Event-ID whenever the
    connection drops, and keeps every event's version."""

    def __init__(self, base: str, game_id: str) -> None:
        super().__init__(daemon=True, name="stream-watcher")
        self.url = f"{base}/games/{game_id}/stream"
        self.versions: list[int] = []
        self.arrivals: list[float] = []  # time.monotonic() of each event
        self.resumes = 0

    def run(self) -> None:
        while True:
            headers = {"Last-Event-ID": str(self.versions[-1])} if self.versions else {}
            try:
                with httpx.stream("GET", self.url, headers=headers, timeout=30) as stream:
                    if stream.status_code != 200:
                        raise httpx.TransportError(f"answered {stream.status_code}")
                    for message in sse(stream):
                        if message.get("event") == "event":
                            self.versions.append(int(message["id"]))
                            self.arrivals.append(time.monotonic())
                return  # the game ended: the stream closed after its last event
            except httpx.HTTPError:
                self.resumes += 1
                time.sleep(0.2)


def slow_game(base: str, receipts: list[Receipt], lock: threading.Lock) -> tuple[str, Thread]:
    """A game of its own, created now and played a move every 0.4 s to its end by a thread:
    it spans the failover, for the stream watcher. Returns its id and the thread."""
    with httpx.Client(base_url=base, timeout=BOUND) as http:
        tokens = [http.post("/players", json={"name": n}).json()["token"] for n in "ab"]
        auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
        game = {"variant": "open-hand", "seats": 2}
        game_id = str(http.post("/games", json=game, headers=auth[0]).json()["game_id"])
        http.post(f"/games/{game_id}/join", headers=auth[1]).raise_for_status()

    def slowly() -> None:
        with httpx.Client(base_url=base, timeout=30) as http:
            play(http, game_id, auth, threading.Event(), receipts, lock, pace=0.4)

    player = Thread(target=slowly, daemon=True, name="slow-game")
    player.start()
    return game_id, player


def seconds_without_writes(answers: list[Answer], fault_at: float, stopped_at: float) -> float:
    """The longest time between two acknowledged commands, or the last one and the bots'
    stop, once the primary failed (an answer on its way when it failed may come just after:
    writes that never came back count until the stop)."""
    acks = sorted(a.at for a in answers if a.command and a.status == 200 and a.at < stopped_at)
    acks.append(stopped_at)
    gaps = [later - earlier for earlier, later in itertools.pairwise(acks) if later > fault_at]
    return max(gaps, default=float("inf"))


def run(
    folder: Path, *, fault: str = "kill", bots: int = 6, before: float = 5.0, after: float = 8.0
) -> Drill:
    drill = Drill(fault=fault)
    with ExitStack() as stack:
        hosts = stack.enter_context(Hosts()) if fault in ("cut", "nodes") else None
        cluster = stack.enter_context(cluster_in(folder / "cluster", hosts=hosts))
        schema = f"drill_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(cluster.url(), autocommit=True) as db:
            db.execute(f'CREATE SCHEMA "{schema}"')
        settings = Settings(database_url=f"{cluster.url()}&schema={schema}", data_dir=folder)
        with ExitStack() as service:
            if fault == "nodes":
                assert hosts is not None
                nodes = service.enter_context(api_nodes(settings, folder, hosts))
                base = nodes.base
            else:
                base = service.enter_context(running_server(settings, folder, workers=2))
            receipts: list[Receipt] = []
            answers: list[Answer] = []
            lock, stop = threading.Lock(), threading.Event()
            threads = [
                threading.Thread(
                    target=bot,
                    args=(base, stop, receipts, lock, answers, CLIENT_TIMEOUT),
                    daemon=True,
                )
                for _ in range(bots)
            ]
            for thread in threads:
                thread.start()
            wait_until(lambda: len(receipts) > 20, "the bots played")
            time.sleep(before)
            slow_id, slow_player = slow_game(base, receipts, lock)
            watcher = StreamWatcher(base, slow_id)
            watcher.start()
            wait_until(lambda: len(watcher.versions) > 5, "the slow game's stream began")
            windows = failover_deadlines.open_windows(base)
            old_primary = cluster.primary()
            assert old_primary is not None
            fault_at, fault_at_wall = time.monotonic(), datetime.now(UTC)
            if fault == "cut":
                assert hosts is not None
                hosts.cut(old_primary)
            else:
                cluster.kill(old_primary)
            if fault == "nodes":
                nodes.kill(API_NODES[0])
            wait_until(  # past the answers that were on their way when it failed
                lambda: any(
                    a.command and a.status == 200 and a.at > fault_at + 1 for a in list(answers)
                ),
                "writes came back",
            )
            time.sleep(after)
            stopped_at = time.monotonic()
            stop.set()
            finished(threads)
            finished([slow_player])
            watcher.join(60)  # the game has ended: its stream ends after the last event
            drill.stream_ended = not watcher.is_alive()
            game_events = httpx.get(f"{base}/games/{slow_id}/events", timeout=BOUND).json()
            drill.stream_missing = len(game_events["events"]) - len(set(watcher.versions))
            outcome = Outcome()
            check(base, receipts, outcome)
            drill.acknowledged, drill.lost = outcome.acknowledged, outcome.lost
            drill.broken_chains = outcome.broken_chains
            drill.seconds_without_writes = seconds_without_writes(answers, fault_at, stopped_at)
            drill.unavailable = sum(
                a.status == 503 and a.code == "store_unavailable" for a in answers
            )
            drill.other_5xx = sum(a.status >= 500 for a in answers) - drill.unavailable
            drill.no_answer = sum(a.status == 0 for a in answers)
            drill.slowest_answer = max((a.took for a in answers), default=0.0)
            drill.answer_bound = settings.store_timeout + ANSWER_SLACK
            drill.late_answers = sum(a.took > drill.answer_bound for a in answers)
            versions = watcher.versions
            drill.stream_events, drill.stream_resumes = len(versions), watcher.resumes
            drill.stream_spans_failover = bool(watcher.arrivals) and (
                watcher.arrivals[0] < fault_at < watcher.arrivals[-1]
            )
            drill.stream_gaps = sum(b != a + 1 for a, b in itertools.pairwise(versions))
            drill.lobby_caught_up = lobby_matches_log(base, receipts)
            last_deadline = max(w.deadline for w in windows).timestamp()
            time.sleep(max(0.0, last_deadline + 2 - time.time()))
            drill.deadlines = failover_deadlines.closings(base, windows, fault_at_wall)
        if fault == "cut":
            assert hosts is not None
            hosts.restore(old_primary)
        else:
            cluster.rejoin(old_primary)
        give_up = time.monotonic() + REJOIN_WITHIN
        while time.monotonic() < give_up and cluster.state(old_primary) != "secondary":
            time.sleep(1)
        drill.old_primary_state = cluster.state(old_primary) or "unknown"
        drill.rejoined = drill.old_primary_state == "secondary"
    return drill


def lobby_matches_log(base: str, receipts: list[Receipt]) -> bool:
    """Each game's lobby row is at the version of its last event: the projector followed the
    log through the failover from its stored position, skipping and repeating nothing."""
    games = {receipt.game_id for receipt in receipts}
    with httpx.Client(base_url=base, timeout=BOUND) as http:
        lengths = {
            game_id: len(
                http.get(f"/games/{game_id}/events", params={"limit": 500}).json()["events"]
            )
            for game_id in games
        }

        def caught_up() -> bool:
            versions: dict[str, int] = {}
            page: str | None = "/games?limit=100"
            while page is not None:
                answer = http.get(page)
                versions.update({row["game_id"]: row["version"] for row in answer.json()})
                page = next_page(answer)
            return all(versions.get(game_id) == length for game_id, length in lengths.items())

        try:
            wait_until(caught_up, "the lobby caught up", within=60)
        except AssertionError:
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    """The drill alone (`make torture` runs it with the other checks)."""
    parser = argparse.ArgumentParser(prog="python -m tests.faults.failover")
    parser.add_argument("--fault", choices=list(FAULTS), default="kill")
    fault = parser.parse_args(argv).fault
    with tempfile.TemporaryDirectory(prefix="cardledger-failover-") as folder:
        Path(folder).chmod(0o755)  # the cluster's processes run as the postgres user
        drill = run(Path(folder), fault=fault)
    verdict = "ok  " if drill.ok() else "FAIL"
    print(f"{verdict} failover drill, {FAULTS[fault]}: {drill.figure()}", flush=True)
    return 0 if drill.ok() else 1


if __name__ == "__main__":
    raise SystemExit(main())
