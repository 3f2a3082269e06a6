"""Limits a public deployment runs with: request rates per address, per token and for
registrations (429 with RateLimit-* and Retry-After), live streams open at once, and a deadline
for a request to arrive, so that a slow client cannot hold a connection for ever."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from litestar.testing import TestClient

from service.http.app import create_app
from service.settings import NO_LIMITS, Limits, Settings
from tests.support.servers import running_server, stream_held_open


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[TestClient[Any]]:
    limits = msgspec.structs.replace(NO_LIMITS, per_address=12, per_token=5, registrations=3)
    with TestClient(create_app(Settings(data_dir=tmp_path, limits=limits))) as client:
        yield client


def assert_rate_limited(answer: httpx.Response) -> None:
    assert answer.status_code == 429, answer.text
    assert answer.json()["code"] == "rate_limited"
    assert answer.headers["RateLimit-Limit"].isdigit()
    assert answer.headers["RateLimit-Remaining"] == "0"
    assert answer.headers["Retry-After"] == answer.headers["RateLimit-Reset"]


def test_registrations_are_limited_per_address(limited: TestClient[Any]) -> None:
    for name in ("Ann", "Ben", "Cat"):
        assert limited.post("/players", json={"name": name}).status_code == 201
    assert_rate_limited(limited.post("/players", json={"name": "Dan"}))
    assert limited.get("/variants").status_code == 200  # other requests still go through


def test_requests_are_limited_per_token(limited: TestClient[Any]) -> None:
    tokens = [limited.post("/players", json={"name": n}).json()["token"] for n in ("Ann", "Ben")]
    first, second = ({"Authorization": f"Bearer {t}"} for t in tokens)
    for _ in range(5):
        assert limited.get("/games", headers=first).status_code == 200
    assert_rate_limited(limited.get("/games", headers=first))
    assert limited.get("/games", headers=second).status_code == 200  # another token's own count


def test_requests_are_limited_per_address_but_not_the_probes(limited: TestClient[Any]) -> None:
    answers = [limited.get("/variants") for _ in range(13)]
    assert [a.status_code for a in answers[:12]] == [200] * 12
    assert_rate_limited(answers[12])
    assert limited.get("/health").status_code == 200
    assert limited.get("/ready").status_code == 200


def test_an_answer_under_the_limits_carries_them_gzipped_or_not(limited: TestClient[Any]) -> None:
    for encoding, remaining in (("identity", "11"), ("gzip", "10")):
        answer = limited.get("/variants", headers={"Accept-Encoding": encoding})
        assert answer.headers.get("Content-Encoding", "identity") == encoding
        assert answer.headers["RateLimit-Remaining"] == remaining
        assert answer.headers["RateLimit-Policy"] == "12; w=60"
        assert "Cardledger-Instance" in answer.headers


def test_the_defaults_are_on_and_the_switch_turns_them_off() -> None:
    assert Settings.from_env({}).limits == Limits()
    assert Settings.from_env({"CARDLEDGER_LIMITS": "off"}).limits == NO_LIMITS
    tuned = Settings.from_env({"CARDLEDGER_LIMIT_PER_TOKEN": "50"}).limits
    assert tuned.per_token == 50 and tuned.per_address == Limits().per_address


@pytest.fixture
def strict_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("CARDLEDGER_LIMITS", "on")
    monkeypatch.setenv("CARDLEDGER_LIMIT_STREAMS_PER_TOKEN", "1")
    monkeypatch.setenv("CARDLEDGER_REQUEST_SECONDS", "1")
    with running_server(Settings(data_dir=tmp_path), tmp_path) as base:
        yield base


def test_one_token_holds_at_most_its_streams_at_once(strict_server: str) -> None:
    base = strict_server
    with httpx.Client(base_url=base, timeout=10) as http:
        token = http.post("/players", json={"name": "Ann"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        game_id = http.post("/games", json={"variant": "open-hand", "seats": 2}, headers=auth)
        stream = f"/games/{game_id.json()['game_id']}/stream"
        with stream_held_open(base + stream, auth):
            refused = http.get(stream, headers=auth)
            assert (refused.status_code, refused.json()["code"]) == (429, "too_many_streams")
            assert refused.headers["Retry-After"].isdigit()


def closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        return sock.recv(1024) == b""
    except TimeoutError:
        return False


def test_a_slow_client_is_cut_off(strict_server: str) -> None:
    host, port = strict_server.removeprefix("http://").split(":")
    silent = socket.create_connection((host, int(port)))
    dribbling = socket.create_connection((host, int(port)))
    dribbling.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")  # the rest never comes
    # Cut off after a second (CARDLEDGER_REQUEST_SECONDS); a loaded machine may take longer.
    assert closed_within(silent, 30)
    assert closed_within(dribbling, 30)
    silent.close()
    dribbling.close()
    assert httpx.get(f"{strict_server}/health", timeout=5).status_code == 200
