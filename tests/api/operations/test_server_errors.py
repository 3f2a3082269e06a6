"""Problem details, close to the code: a 5xx raised as an ``HTTPException`` (by litestar, a
plugin or a handler) tells the client nothing of its cause; a 4xx says what was wrong; a store
failure says whether a write may have been recorded."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from eventsourcing.persistence import OperationalError
from litestar import Litestar, get, route
from litestar.exceptions import HTTPException
from litestar.params import FromPath
from litestar.testing import TestClient

from service.http.problems import EXCEPTION_HANDLERS
from service.store.postgres import OutcomeUnknown

SECRET = "could not reach postgresql://cardledger:hunter2@10.0.0.7/cardledger"


@get("/fails/{status:int}", sync_to_thread=False)
def fails(status: FromPath[int]) -> None:
    raise HTTPException(status_code=status, detail=SECRET)


@pytest.fixture
def client() -> Iterator[TestClient[Any]]:
    app = Litestar(route_handlers=[fails], exception_handlers=EXCEPTION_HANDLERS)
    with TestClient(app) as client:
        yield client


@pytest.mark.parametrize("status", [500, 502, 503])
def test_a_server_error_keeps_its_cause_to_itself(client: TestClient[Any], status: int) -> None:
    answer = client.get(f"/fails/{status}")
    assert answer.status_code == status
    assert answer.headers["Content-Type"].startswith("application/problem+json")
    body = answer.json()
    assert (body["code"], body["detail"]) == ("internal_error", "internal error")
    assert "hunter2" not in answer.text


def test_a_client_error_says_what_was_wrong(client: TestClient[Any]) -> None:
    answer = client.get("/fails/409")
    assert answer.status_code == 409
    assert answer.json()["detail"] == SECRET


@route("/store/{outcome:str}", http_method=["GET", "POST"], sync_to_thread=False)
def store_fails(outcome: FromPath[str]) -> None:
    if outcome == "unknown":
        raise OutcomeUnknown("the connection was lost after the statement was sent")
    raise OperationalError("no connection to be had")


def test_a_store_failure_says_whether_a_write_may_have_happened() -> None:
    app = Litestar(route_handlers=[store_fails], exception_handlers=EXCEPTION_HANDLERS)
    with TestClient(app) as client:
        unknown = client.post("/store/unknown")
        refused = client.post("/store/away")
        read = client.get("/store/unknown")
    for answer in (unknown, refused, read):
        assert (answer.status_code, answer.json()["code"]) == (503, "store_unavailable")
        assert answer.headers["Retry-After"].isdigit()
    assert "may or may not" in unknown.json()["detail"]
    assert "Idempotency-Key" in unknown.json()["detail"]
    assert "nothing was changed" in refused.json()["detail"]
    assert "write" not in read.json()["detail"]  # a read writes nothing, whatever failed
