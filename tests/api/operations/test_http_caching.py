"""What HTTP gives clients for free: validators and caching for a game's answers, compression
of large ones (never of a live stream), and CORS for pages on other origins."""

from __future__ import annotations

import gzip

import msgspec
from litestar.testing import TestClient

from service.application import Cardledger
from service.http.app import create_app
from service.settings import Settings
from tests.support.client import Api


def test_answers_about_a_running_game_revalidate_and_a_finished_game_is_immutable(
    api: Api,
) -> None:
    game_id = api.started(2)
    path = f"/games/{game_id}/events"
    first = api.client.get(path, headers=api.auth(0))
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "private, no-cache"
    again = api.client.get(path, headers={**api.auth(0), "If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    # Another seat sees other secrets: another validator.
    other = api.client.get(path, headers={**api.auth(1), "If-None-Match": etag})
    assert other.status_code == 200 and other.headers["ETag"] != etag
    api.play_to_end(game_id)
    moved = api.client.get(path, headers={**api.auth(0), "If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag
    for read in ("", "/events", "/audit", "/export", "/replay"):
        final = api.client.get(f"/games/{game_id}{read}")
        assert final.status_code == 200, read
        assert final.headers["Cache-Control"] == "public, max-age=31536000, immutable", read


def test_a_refused_perspective_is_refused_before_any_validator(api: Api) -> None:
    game_id = api.started(2)
    answer = api.client.get(
        f"/games/{game_id}/replay",
        params={"perspective": "seat:1"},
        headers={**api.auth(0), "If-None-Match": "*"},
    )
    assert (answer.status_code, answer.json()["code"]) == (403, "perspective_forbidden")


def test_large_answers_are_compressed_and_streams_are_not(api: Api) -> None:
    game_id = api.started(2)
    api.play_to_end(game_id)
    exported = api.client.get(f"/games/{game_id}/export", headers={"Accept-Encoding": "gzip"})
    assert exported.headers["Content-Encoding"] == "gzip"
    assert exported.json()["game_id"] == game_id  # the client decoded it
    raw = api.client.get(f"/games/{game_id}/export", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in raw.headers
    assert len(gzip.compress(raw.content)) < len(raw.content)
    small = api.client.get("/health", headers={"Accept-Encoding": "gzip"})
    assert len(small.content) < 1024 and "Content-Encoding" not in small.headers
    with api.client.stream(
        "GET", f"/games/{game_id}/stream", headers={"Accept-Encoding": "gzip"}
    ) as stream:
        assert "Content-Encoding" not in stream.headers


PREFLIGHT = {
    "Origin": "https://table.example",
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "authorization, idempotency-key",
}


def test_no_other_origin_may_call_the_api_by_default(api: Api) -> None:
    preflight = api.client.options("/games", headers=PREFLIGHT)
    assert "Access-Control-Allow-Origin" not in preflight.headers
    simple = api.client.get("/variants", headers={"Origin": "https://table.example"})
    assert simple.status_code == 200 and "Access-Control-Allow-Origin" not in simple.headers


def test_pages_on_listed_origins_may_call_the_api(settings: Settings) -> None:
    listed = msgspec.structs.replace(settings, cors_origins="https://table.example")
    ledger = Cardledger(listed)
    with TestClient(create_app(listed, ledger)) as client:
        preflight = client.options("/games", headers=PREFLIGHT)
        assert preflight.status_code in (200, 204)
        assert preflight.headers["Access-Control-Allow-Origin"] == "https://table.example"
        allowed = preflight.headers["Access-Control-Allow-Headers"].lower()
        assert "authorization" in allowed and "idempotency-key" in allowed
        simple = client.get("/variants", headers={"Origin": "https://table.example"})
        assert simple.headers["Access-Control-Allow-Origin"] == "https://table.example"
        exposed = simple.headers["Access-Control-Expose-Headers"].lower()
        assert "etag" in exposed and "link" in exposed  # revalidation, and the next page
        other = client.get("/variants", headers={"Origin": "https://elsewhere.example"})
        assert "Access-Control-Allow-Origin" not in other.headers
    ledger.close()


def test_a_weak_validator_matches_too(api: Api) -> None:
    """A cache may hand the ETag back weak (``W/"…"``), alone or in a list (RFC 9110 13.1.2:
    If-None-Match compares weakly)."""
    game_id = api.started(2)
    path = f"/games/{game_id}/view"
    etag = api.client.get(path, headers=api.auth(0)).headers["ETag"]
    for held in (f"W/{etag}", f'"elsewhere", W/{etag}', f' W/{etag} , "x"'):
        again = api.client.get(path, headers={**api.auth(0), "If-None-Match": held})
        assert again.status_code == 304, held
    other = api.client.get(path, headers={**api.auth(0), "If-None-Match": 'W/"elsewhere"'})
    assert other.status_code == 200


def test_if_none_match_star_matches_any_current_answer(api: Api) -> None:
    game_id = api.started(2)
    for read in ("", "/view", "/events", "/audit"):
        held = api.client.get(
            f"/games/{game_id}{read}", headers={**api.auth(0), "If-None-Match": "*"}
        )
        assert held.status_code == 304, read
        assert held.headers["ETag"] and held.content == b"", read
