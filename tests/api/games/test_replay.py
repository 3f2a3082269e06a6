"""Replays fold the log with the live rules; no frame exceeds what its perspective may see."""

from __future__ import annotations

import itertools
from typing import Any

from tests.support.client import Api


def replay(api: Api, game_id: str, query: str, headers: dict[str, str] | None = None) -> Any:
    return api.client.get(f"/games/{game_id}/replay?{query}", headers=headers or {})


def all_frames(
    api: Api, game_id: str, perspective: str, headers: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    collected: list[dict[str, Any]] = []
    start: int | None = 1
    while start is not None:
        page = replay(api, game_id, f"perspective={perspective}&from={start}&limit=7", headers)
        assert page.status_code == 200, page.text
        body = page.json()
        collected += body["frames"]
        start = body["next_from"]
    return collected


def test_a_finished_game_replays_frame_by_frame(api: Api) -> None:
    game_id = api.started(3)
    final = api.play_to_end(game_id)
    frames = all_frames(api, game_id, "full")
    assert [f["version"] for f in frames] == list(range(1, final["version"] + 1))
    assert frames[-1]["view"]["scores"] == final["scores"]
    assert frames[-1]["view"]["status"] == "finished"
    assert frames[-1]["view"]["chain_head"] == final["chain_head"]
    dealt = next(f for f in frames if f["event"]["type"] == "HandDealt")
    assert all(hand["value"] for hand in dealt["event"]["payload"]["hands"])
    # The hand shrinks by one card per play, frame by frame, for the seat replayed.
    seat_frames = all_frames(api, game_id, "seat:1")
    sizes = [len(f["view"]["hand"]) for f in seat_frames if f["view"]["hand"] is not None]
    sizes = sizes[sizes.index(5) :]  # from the deal on
    assert sizes[-1] == 0
    assert all(a - b in (0, 1) for a, b in itertools.pairwise(sizes))


def test_perspective_rules_while_the_game_runs(api: Api) -> None:
    game_id = api.started(3)
    public = all_frames(api, game_id, "public")
    for frame in public:
        assert frame["view"]["hand"] is None
        payload = frame["event"]["payload"]
        if frame["event"]["type"] == "HandDealt":
            assert all(hand["value"] is None for hand in payload["hands"])
    own = replay(api, game_id, "perspective=seat:1", api.auth(1))
    assert own.status_code == 200
    assert own.json()["frames"][-1]["view"]["hand"] == api.view(game_id, 1)["hand"]
    other = replay(api, game_id, "perspective=seat:1", api.auth(2))
    assert (other.status_code, other.json()["code"]) == (403, "perspective_forbidden")
    anonymous = replay(api, game_id, "perspective=seat:1")
    assert anonymous.status_code == 403
    full = replay(api, game_id, "perspective=full", api.auth(0))
    assert (full.status_code, full.json()["code"]) == (403, "perspective_forbidden")
    assert replay(api, game_id, "perspective=full", api.admin()).status_code == 200


def test_bad_perspectives(api: Api) -> None:
    game_id = api.started(2)
    for bad in ("seat:9", "seat:x", "everything"):
        response = replay(api, game_id, f"perspective={bad}", api.admin())
        assert (response.status_code, response.json()["code"]) == (422, "invalid_perspective")
