"""The lobby pages: newest first, `limit` games a page, each page's Link naming the next one
(an opaque cursor), pages that never overlap, with or without filters."""

from __future__ import annotations

from typing import Any

from tests.support.client import Api, next_page


def ids(pages: list[Any]) -> list[list[str]]:
    return [[entry["game_id"] for entry in page.json()] for page in pages]


def test_pages_cover_the_lobby_newest_first_without_overlap(api: Api) -> None:
    api.register(2)
    created = [api.create(2) for _ in range(7)]
    everything = api.pages("/games")  # the default: every game, newest first, on one page
    assert ids(everything) == [list(reversed(created))]
    pages = api.pages("/games?limit=3")
    assert [len(page) for page in ids(pages)] == [3, 3, 1]
    assert [game for page in ids(pages) for game in page] == ids(everything)[0]
    assert next_page(pages[0]) == next_page(api.client.get("/games?limit=3"))  # the same cursor


def test_the_last_page_names_no_next_even_when_it_is_full(api: Api) -> None:
    api.register(2)
    created = [api.create(2) for _ in range(6)]
    pages = api.pages("/games?limit=3")
    assert ids(pages) == [created[:2:-1], created[2::-1]]  # no empty third page
    assert next_page(api.client.get("/games?limit=6")) is None


def test_paging_combines_with_the_filters(api: Api) -> None:
    api.register(2)
    waiting = [api.create(2) for _ in range(3)]
    started = api.started(2)
    assert ids(api.pages("/games?status=waiting&limit=2")) == [
        [waiting[2], waiting[1]],
        [waiting[0]],
    ]
    assert ids(api.pages("/games?status=active&limit=1")) == [[started]]
    by_variant = api.pages("/games?variant=open-hand&limit=1")
    assert ids(by_variant) == [[started], [waiting[2]], [waiting[1]], [waiting[0]]]
    assert "variant=open-hand" in (next_page(by_variant[0]) or "")  # the filters travel along


def test_out_of_range_paging_is_refused_in_words(api: Api) -> None:
    for query in ("?limit=0", "?limit=501", "?limit=ten", "?cursor=10"):
        response = api.client.get(f"/games{query}")
        assert response.status_code in (400, 422), (query, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
        assert response.json()["code"]
