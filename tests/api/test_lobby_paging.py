"""The lobby pages: newest first, `limit` games from `offset`, pages that never overlap."""

from __future__ import annotations

from tests.client import Api


def ids(api: Api, query: str) -> list[str]:
    response = api.client.get(f"/games{query}")
    assert response.status_code == 200, response.text
    return [entry["game_id"] for entry in response.json()]


def test_pages_cover_the_lobby_newest_first_without_overlap(api: Api) -> None:
    api.register(2)
    created = [api.create(2) for _ in range(7)]
    everything = ids(api, "")
    assert everything == list(reversed(created))  # the default: every game, newest first
    pages = [ids(api, f"?limit=3&offset={offset}") for offset in (0, 3, 6, 9)]
    assert [len(page) for page in pages] == [3, 3, 1, 0]
    assert [game for page in pages for game in page] == everything


def test_paging_combines_with_the_filters(api: Api) -> None:
    api.register(2)
    waiting = [api.create(2) for _ in range(3)]
    started = api.started(2)
    assert ids(api, "?status=waiting&limit=2") == [waiting[2], waiting[1]]
    assert ids(api, "?status=waiting&limit=2&offset=2") == [waiting[0]]
    assert ids(api, "?status=active&limit=1") == [started]
    assert ids(api, "?variant=open-hand&limit=1&offset=1") == [waiting[2]]


def test_out_of_range_paging_is_refused_in_words(api: Api) -> None:
    for query in ("?limit=0", "?limit=501", "?offset=-1", "?limit=ten"):
        response = api.client.get(f"/games{query}")
        assert response.status_code in (400, 422), (query, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
        assert response.json()["code"]
