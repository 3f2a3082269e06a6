"""The witnessed log over the API, on both stores (issue 25): every game logged at its creation
(with its seed commitment, before any deal) and at its end; a game's receipt from the log
checked with ``projections.transparency`` alone against the served checkpoint, key and tiles;
consistency between checkpoints; coded problems for bad tile paths and sizes."""

from __future__ import annotations

import base64
import time
from typing import Any
from uuid import UUID

import pytest

from projections.transparency.entries import GameCreatedEntry, GameEndedEntry, decode
from projections.transparency.merkle import (
    leaf_hash,
    root,
    verify_consistency,
    verify_inclusion,
)
from projections.transparency.notes import Policy, SignedNote, Verifier
from projections.transparency.tiles import (
    WIDTH,
    bundle_entries,
    tile_path,
    tile_width,
    tiled_nodes,
)
from tests.support.client import Api

WAIT_SECONDS = 10.0


def signed(api: Api, size: int) -> SignedNote:
    """The latest checkpoint once it covers ``size`` entries, accepted under the served key."""
    key = Verifier.parse(api.client.get("/log/key").text)
    give_up = time.monotonic() + WAIT_SECONDS
    while True:
        response = api.client.get("/log/checkpoint")
        if response.status_code == 200:
            assert response.headers["content-type"].startswith("text/plain")
            note = SignedNote.parse(response.text)
            Policy(key, (), 0).accept(note)
            if note.checkpoint.size >= size:
                return note
        assert time.monotonic() < give_up, f"no checkpoint of {size} entries: {response.text}"
        time.sleep(0.05)


def served_tree(api: Api, size: int) -> Any:
    """The tree of ``size`` as a client reads it: from the served tiles alone."""

    def fetch(level: int, index: int) -> bytes:
        path = tile_path(level, index, tile_width(size, level, index))
        response = api.client.get(f"/log/{path}")
        assert response.status_code == 200, (path, response.text)
        return bytes(response.content)

    return tiled_nodes(fetch)


def receipt(api: Api, game_id: str) -> dict[str, Any]:
    response = api.client.get(f"/games/{game_id}/log")
    assert response.status_code == 200, response.text
    return dict(response.json())


def check_receipt(api: Api, game_id: str) -> list[Any]:
    """The game's entries, each checked against the receipt's checkpoint (signed by the log's
    served key) and against the tree the tiles hold."""
    found = receipt(api, game_id)
    key = Verifier.parse(api.client.get("/log/key").text)
    note = SignedNote.parse(found["checkpoint"])
    Policy(key, (), 0).accept(note)
    size, expected_root = note.checkpoint.size, note.checkpoint.root
    assert found["tree_size"] == size
    assert root(served_tree(api, size), size) == expected_root
    entries = []
    for logged in found["entries"]:
        data = logged["entry"].encode()
        proof = [base64.b64decode(hashed) for hashed in logged["inclusion_proof"]]
        verify_inclusion(leaf_hash(data), logged["index"], size, proof, expected_root)
        entries.append(decode(data))
    return entries


def test_a_games_creation_and_end_are_logged_and_its_receipt_verifies(api: Api) -> None:
    game_id = api.started(3)
    created = api.client.get(f"/games/{game_id}/events?after=0&limit=1").json()["events"][0]
    signed(api, 1)
    [entry] = check_receipt(api, game_id)
    assert isinstance(entry, GameCreatedEntry)
    assert str(entry.game_id) == game_id and entry.variant == "open-hand"
    assert entry.commitment == created["payload"]["seed_commitment"]
    summary = api.play_to_end(game_id)
    head = api.client.get(f"/games/{game_id}").json()
    signed(api, 2)
    first, last = check_receipt(api, game_id)
    assert first == entry
    assert last == GameEndedEntry(entry.game_id, "finished", head["version"], head["chain_head"])
    assert summary["status"] == "finished"


def test_an_abandoned_deal_stays_on_record_and_a_cancellation_is_logged(api: Api) -> None:
    api.register(3)
    waiting = api.create(3)
    cancelled = api.create(3)
    response = api.client.post(f"/games/{cancelled}/cancel", headers=api.auth(0))
    assert response.status_code == 200, response.text
    signed(api, 3)
    [pending] = check_receipt(api, waiting)
    assert isinstance(pending, GameCreatedEntry)
    created, ended = check_receipt(api, cancelled)
    assert isinstance(created, GameCreatedEntry)
    assert isinstance(ended, GameEndedEntry) and ended.status == "cancelled"
    bundle = api.client.get(f"/log/tile/entries/000.p/{3}")
    assert bundle.status_code == 200 and bundle.headers["cache-control"] == "no-cache"
    assert [decode(data).game_id for data in bundle_entries(bundle.content)] == [
        pending.game_id,
        created.game_id,
        ended.game_id,
    ]


def test_a_newer_checkpoint_is_consistent_with_an_older_one(api: Api) -> None:
    api.register(2)
    api.create(2)
    older = signed(api, 1).checkpoint
    for _ in range(4):
        api.create(2)
    newer = signed(api, older.size + 4).checkpoint
    response = api.client.get(f"/log/consistency?from={older.size}&to={newer.size}")
    assert response.status_code == 200, response.text
    proof = [base64.b64decode(hashed) for hashed in response.json()["proof"]]
    verify_consistency(older.size, newer.size, older.root, newer.root, proof)


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("tile/0/000", 404, "tile_not_found"),  # a full tile the tree does not hold yet
        ("tile/0/000.p/200", 404, "tile_not_found"),
        ("tile/0/001.p/1", 404, "tile_not_found"),
        ("tile/entries/000.p/9", 404, "tile_not_found"),
        ("tile/0/1", 400, "invalid_tile_path"),
        ("tile/0/x000/001", 400, "invalid_tile_path"),
        ("tile/0/000.p/256", 400, "invalid_tile_path"),
        ("tile/0/000.p/0", 400, "invalid_tile_path"),
        ("tile/9/000", 400, "invalid_tile_path"),
        ("tile/0/001/002", 400, "invalid_tile_path"),
        ("tile/hashes/000", 400, "invalid_tile_path"),
        ("tile/0", 400, "invalid_tile_path"),
    ],
)
def test_bad_tile_paths_are_coded_problems(api: Api, path: str, status: int, code: str) -> None:
    api.register(1)
    api.create(2)
    signed(api, 1)
    response = api.client.get(f"/log/{path}")
    assert response.status_code == status, response.text
    assert response.json()["code"] == code


def test_bad_sizes_and_unknown_games_are_coded_problems(api: Api) -> None:
    api.register(1)
    api.create(2)
    signed(api, 1)
    for query in ("from=2&to=1", "from=0&to=2", "from=-1&to=1"):
        response = api.client.get(f"/log/consistency?{query}")
        assert response.status_code in (400, 422), response.text
        assert response.json()["code"] in ("invalid_tree_size", "invalid_parameter")
    assert api.client.get("/log/consistency?from=2&to=1").json()["code"] == "invalid_tree_size"
    missing = api.client.get("/games/00000000-0000-4000-8000-000000000000/log")
    assert (missing.status_code, missing.json()["code"]) == (404, "game_not_found")


def test_a_full_tile_is_immutable_and_agrees_with_the_tree(api: Api) -> None:
    api.register(1)
    count = WIDTH + 3
    for _ in range(count):
        api.create(2)
    size = signed(api, count).checkpoint.size
    full = api.client.get("/log/tile/0/000")
    assert full.status_code == 200
    assert full.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert len(full.content) == WIDTH * 32
    assert root(served_tree(api, size), size) == signed(api, size).checkpoint.root
    upper = api.client.get("/log/tile/1/000.p/1")
    assert upper.status_code == 200 and len(upper.content) == 32


def test_answers_that_seat_a_player_or_end_a_game_point_to_its_receipt(api: Api) -> None:
    api.register(2)
    created = api.client.post(
        "/games", json={"variant": "open-hand", "seats": 2}, headers=api.auth(0)
    ).json()
    game_id = created["game_id"]
    assert created["log"] == f"/games/{game_id}/log"
    joined = api.client.post(f"/games/{game_id}/join", headers=api.auth(1)).json()
    assert joined["log"] == f"/games/{game_id}/log"
    seat = api.view(game_id)["to_act"][0]
    play = next(c for c in api.view(game_id, seat)["legal_commands"] if c["type"] == "play")
    assert api.command(game_id, seat, play).json()["log"] is None, "a play logs nothing"
    other = api.create(2)
    cancelled = api.client.post(f"/games/{other}/cancel", headers=api.auth(0)).json()
    assert cancelled["log"] == f"/games/{other}/log"
    receipt = api.keep_log_receipt(other, 2)
    assert [decode(e["entry"].encode()).game_id for e in receipt["entries"]] == [UUID(other)] * 2
