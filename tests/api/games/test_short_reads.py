"""Short reads of one game (its view, its summary, a page of its events) run on the event loop
where the store's reads wait for nobody (SQLite), and in a store thread where they wait on the
network (PostgreSQL), whose round trip would hold up every other request on the loop."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from service.settings import Settings
from tests.support.client import Api


@pytest.mark.parametrize("path", ["/view", "", "/events"])
def test_a_short_read_runs_on_the_loop_only_where_reads_wait_for_nothing(
    api: Api, settings: Settings, path: str
) -> None:
    game_id = api.started(2)
    queries: Any = api.ledger.queries
    threads: list[str] = []
    read, read_public = queries.read, queries.read_public

    def noted(reader: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            threads.append(threading.current_thread().name)
            return reader(*args, **kwargs)

        return call

    queries.read, queries.read_public = noted(read), noted(read_public)
    try:
        answer = api.client.get(f"/games/{game_id}{path}", headers=api.auth(0))
    finally:
        queries.read, queries.read_public = read, read_public
    assert answer.status_code == 200, answer.text
    on_the_loop = not threads[0].startswith("store")
    assert on_the_loop == (settings.database_url is None), threads
