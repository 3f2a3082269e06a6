"""A route handler marked ``@off_loop`` (service/http/routes/off_loop.py) keeps its signature for
litestar (parameters parsed, the OpenAPI document) and runs on the store threads serving the
app's event loop, not on the loop."""

from __future__ import annotations

import asyncio
import threading

from litestar import Litestar, get
from litestar.params import FromPath, FromQuery
from litestar.testing import TestClient

from service.http.routes.off_loop import off_loop
from service.threads import LoopThreads


@get("/where/{n:int}")
@off_loop
def where(n: FromPath[int], word: FromQuery[str] = "") -> dict[str, object]:
    return {"thread": threading.current_thread().name, "n": n, "word": word}


def test_a_handler_runs_on_the_store_threads_with_its_parameters_parsed() -> None:
    threads = LoopThreads(2, "store")
    loop_threads: list[str] = []

    def start() -> None:
        loop_threads.append(threading.current_thread().name)
        threads.serve(asyncio.get_running_loop())

    app = Litestar([where], on_startup=[start], on_shutdown=[threads.shutdown])
    with TestClient(app) as client:
        answer = client.get("/where/7", params={"word": "seven"})
    assert answer.status_code == 200
    body = answer.json()
    assert body["thread"].startswith("store_") and body["thread"] not in loop_threads
    assert (body["n"], body["word"]) == (7, "seven")
    schema = app.openapi_schema.to_schema()["paths"]["/where/{n}"]["get"]
    assert {p["name"] for p in schema["parameters"]} == {"n", "word"}
