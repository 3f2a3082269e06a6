"""Reads from a real standby (a pg_auto_failover cluster started here, as `make cluster`
does): event pages, replays and the lobby are served by the standby when it has what the client
holds; with the standby's replay paused, a read for a version it lacks waits its bounded moment
and is answered by the primary, never with the older state; once replay resumes, the standby
answers again.

Needs pg_autoctl and root (the nodes run as the postgres user): skipped, saying so, elsewhere."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from prometheus_client import CollectorRegistry

from service.settings import NO_LIMITS, Settings
from service.tools.cluster import NODES, Cluster
from tests.api.bots_and_matchmaking.test_rematch import api_of
from tests.conftest import ADMIN_TOKEN
from tests.faults.failover import three_free_ports
from tests.support.client import Api
from tests.support.threads import wait_until

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        shutil.which("pg_autoctl") is None or os.geteuid() != 0,
        reason="a cluster needs pg_autoctl (postgresql-15-auto-failover) and root",
    ),
    pytest.mark.timeout(400),  # the cluster's start: 12-40 s here, minutes on a loaded host
]


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    folder = Path(tempfile.mkdtemp(prefix="cardledger-standby-"))
    folder.chmod(0o755)  # the nodes run as the postgres user
    started = Cluster(folder / "cluster", three_free_ports())
    try:
        started.start()
        yield started
    finally:
        started.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def api(cluster: Cluster, tmp_path: Path) -> Iterator[Api]:
    primary = cluster.primary()
    assert primary is not None
    standby = next(node for node in NODES if node != primary)
    settings = Settings(
        database_url=cluster.url(),
        read_url=cluster.node_url(standby),
        data_dir=tmp_path,
        admin_token=ADMIN_TOKEN,
        limits=NO_LIMITS,
        threads=4,
    )
    with api_of(settings) as api:
        yield api


def served(registry: CollectorRegistry, read: str, by: str) -> float:
    labels = {"read": read, "by": by}
    return registry.get_sample_value("cardledger_standby_reads_total", labels) or 0.0


def caught_up(cluster: Cluster, standby_url: str) -> None:
    """Wait until the standby has replayed everything the primary has written so far."""
    with psycopg.connect(cluster.url(), autocommit=True) as primary:
        row = primary.execute("SELECT pg_current_wal_lsn()::text").fetchone()
        assert row is not None
    written = row[0]
    with psycopg.connect(standby_url, autocommit=True) as standby:

        def replayed() -> bool:
            query = "SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn"
            found = standby.execute(query, (written,)).fetchone()
            return found is not None and bool(found[0])

        wait_until(replayed, "the standby to replay the primary's writes")


def test_reads_come_from_the_standby_unless_it_lacks_what_the_client_holds(
    cluster: Cluster, api: Api
) -> None:
    registry = api.ledger.telemetry.registry
    standby_url = api.ledger.settings.read_url
    assert standby_url is not None
    game_id = api.started(2)
    api.play_once(game_id)
    caught_up(cluster, standby_url)
    events = f"/games/{game_id}/events"
    page = api.client.get(events, headers=api.auth(0))
    assert page.status_code == 200, page.text
    version = page.json()["head_version"]
    assert page.headers["ETag"].startswith(f'"{version}.')
    assert served(registry, "game", "standby") == 1
    lobby = api.client.get("/games", params={"status": "active"})
    assert game_id in {game["game_id"] for game in lobby.json()}
    assert served(registry, "read_models", "standby") == 1

    with psycopg.connect(standby_url, autocommit=True) as standby:
        standby.execute("SELECT pg_wal_replay_pause()")
        try:
            api.play_once(game_id)  # committed on the primary, not replayed on the standby
            summary = api.client.get(f"/games/{game_id}")  # the primary's: the newest version
            newest = summary.json()["version"]
            assert newest > version
            held = {**api.auth(0), "If-None-Match": summary.headers["ETag"]}
            fallen_back = api.client.get(events, headers=held)
            assert fallen_back.json()["head_version"] == newest  # not the standby's older one
            after = api.client.get(events, params={"after": newest}, headers=api.auth(0))
            assert after.json()["head_version"] == newest
            replay = api.client.get(f"/games/{game_id}/replay", params={"min_version": newest})
            assert replay.json()["head_version"] == newest
            assert served(registry, "game", "primary_behind") == 3
            assert served(registry, "game", "standby") == 1
            lobby = api.client.get("/games", params={"status": "active"})
            assert lobby.status_code == 200
            assert served(registry, "read_models", "primary_behind") == 1
        finally:
            standby.execute("SELECT pg_wal_replay_resume()")

    caught_up(cluster, standby_url)
    again = api.client.get(events, params={"after": newest}, headers=api.auth(0))
    assert again.json()["head_version"] == newest
    assert served(registry, "game", "standby") == 2
