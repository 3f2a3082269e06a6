"""A player's webhook in one process, on both stores: registration and its refusals, the key
shown once, every message delivered in order and signed, retries with backoff after the
receiver fails, a pause after failing too long, and what /metrics shows."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.application import Cardledger
from service.http.app import create_app
from service.settings import Settings
from tests.support.client import Api
from tests.support.threads import BOUND, wait_until
from tests.support.webhook_receiver import TRICKLED_ANSWER, Receiver, Trickler, receiving, trickling


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving() as receiver:
        yield receiver


@contextmanager
def hooked_api(
    settings: Settings, *receivers: Receiver | Trickler, **changes: Any
) -> Iterator[Api]:
    """An app in this process allowed to call ``receivers``, with ``changes`` to its settings."""
    origins = ",".join(receiver.url.removesuffix("/hook") for receiver in receivers)
    allowed = msgspec.structs.replace(settings, webhook_allow=origins, **changes)
    ledger = Cardledger(allowed)
    with TestClient(create_app(allowed, ledger)) as client:
        yield Api(client, ledger)


@pytest.fixture
def api(settings: Settings, receiver: Receiver) -> Iterator[Api]:
    with hooked_api(settings, receiver) as hooked:
        yield hooked


def register_hook(api: Api, receiver: Receiver, seat: int = 0) -> dict[str, Any]:
    auth = api.auth(seat)
    answer = api.client.put("/players/me/webhook", json={"url": receiver.url}, headers=auth)
    assert answer.status_code == 200, answer.text
    receiver.key = answer.json()["signing_key"]
    return dict(answer.json())


def problem(answer: Any) -> tuple[int, str]:
    return answer.status_code, answer.json()["code"]


def hook_status(api: Api) -> dict[str, Any]:
    answer = api.client.get("/players/me/webhook", headers=api.auth(0))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def messages(api: Api, seat: int = 0) -> list[dict[str, Any]]:
    answer = api.client.get("/players/me/messages?limit=500", headers=api.auth(seat))
    assert answer.status_code == 200, answer.text
    return list(answer.json()["messages"])


def test_by_default_no_target_is_allowed(settings: Settings, quiet_api: Api) -> None:
    assert settings.webhook_allow == ""
    quiet_api.register(1)
    for url in ("http://127.0.0.1:9/hook", "https://example.com/hook"):
        answer = quiet_api.client.put(
            "/players/me/webhook", json={"url": url}, headers=quiet_api.auth(0)
        )
        assert problem(answer) == (403, "webhook_not_allowed")
    answer = quiet_api.client.get("/players/me/webhook", headers=quiet_api.auth(0))
    assert problem(answer) == (404, "no_webhook")


def test_bad_urls_and_other_origins_are_refused_and_the_operator_has_no_webhook(
    api: Api, receiver: Receiver
) -> None:
    api.register(1)
    port = receiver.url.split(":")[2].split("/")[0]
    for url, code in [
        ("ftp://127.0.0.1/hook", "invalid_webhook_url"),
        (f"http://user:pw@127.0.0.1:{port}/hook", "invalid_webhook_url"),
        (f"http://127.0.0.1:{port}/hook#part", "invalid_webhook_url"),
        (f"http://127.0.0.1:{port}/" + "a" * 2100, "invalid_webhook_url"),
        ("http://127.0.0.1:99999/hook", "invalid_webhook_url"),  # no such port
        (f"http://localhost:{port}/hook", "webhook_not_allowed"),  # another name: not listed
        (f"https://127.0.0.1:{port}/hook", "webhook_not_allowed"),
        (f"http://127.0.0.1:{int(port) + 1}/hook", "webhook_not_allowed"),
    ]:
        answer = api.client.put("/players/me/webhook", json={"url": url}, headers=api.auth(0))
        assert answer.json()["code"] == code, (url, answer.text)
    answer = api.client.put("/players/me/webhook", json={"url": 5}, headers=api.auth(0))
    assert answer.json()["code"] == "invalid_body"
    answer = api.client.put(
        "/players/me/webhook", json={"url": receiver.url, "x": 1}, headers=api.auth(0)
    )
    assert answer.json()["code"] == "invalid_body"
    for method in ("get", "delete"):
        answer = getattr(api.client, method)("/players/me/webhook", headers=api.admin())
        assert problem(answer) == (403, "players_only")
    assert api.client.get("/players/me/webhook").status_code == 401


def test_the_key_is_shown_once_and_every_later_message_arrives_in_order_signed(
    api: Api, receiver: Receiver
) -> None:
    api.register(4)
    api.play_to_end(api.started(4))  # before the registration: not delivered
    before = messages(api)
    registered = register_hook(api, receiver)
    assert registered["cursor"] == before[-1]["id"]
    assert registered["signing_key"].startswith("whsec_") and len(registered["signing_key"]) > 60
    api.play_to_end(api.started(4))
    mine = messages(api)[len(before) :]
    wait_until(lambda: len(receiver.ids) >= len(mine), "every message delivered")
    assert receiver.ids == [message["id"] for message in mine]
    assert [d.message for d in receiver.deliveries] == mine  # the body is the message
    assert all(d.signed for d in receiver.deliveries)
    first = receiver.deliveries[0]
    assert first.headers["content-type"] == "application/json"
    assert first.headers["webhook-signature"].startswith("v1=")
    shown = api.client.get("/players/me/webhook", headers=api.auth(0))
    assert shown.status_code == 200
    status = shown.json()
    assert "signing_key" not in status and registered["signing_key"] not in shown.text
    wait_until(
        lambda: (
            api.client.get("/players/me/webhook", headers=api.auth(0)).json()["cursor"]
            == mine[-1]["id"]
        ),
        "the cursor at the last message",
    )
    status = api.client.get("/players/me/webhook", headers=api.auth(0)).json()
    assert status["pending"] == 0 and status["delivered"] == len(mine)
    assert status["state"] == "active" and status["failures"] == 0
    assert status["last_outcome"] == "delivered" and status["last_status"] == 200
    scraped = api.client.get("/metrics").text
    assert f'cardledger_webhook_deliveries_total{{outcome="delivered"}} {len(mine)}.0' in scraped
    assert "cardledger_webhook_pending_messages 0.0" in scraped


def test_a_signature_under_another_key_does_not_verify(api: Api, receiver: Receiver) -> None:
    api.register(4)
    register_hook(api, receiver)
    receiver.key = "whsec_" + "0" * 64
    api.started(4)
    wait_until(lambda: receiver.deliveries, "a delivery")
    assert not receiver.deliveries[0].signed


def test_failures_are_retried_with_backoff_in_order_then_delivered(
    settings: Settings, receiver: Receiver
) -> None:
    failing = 3
    receiver.status = lambda number: 500 if number <= failing else 204
    with hooked_api(settings, receiver, webhook_retry_first=1, webhook_retry_most=2) as api:
        api.ledger.webhooks.draw = lambda: 1.0  # no jitter: each wait is its ceiling
        api.register(4)
        register_hook(api, receiver)
        game = api.started(4)
        first = messages(api)[0]
        wait_until(lambda: len(receiver.ids) >= 2, "a retry")
        status = hook_status(api)
        assert status["failures"] >= 1 and status["last_status"] == 500
        assert status["last_outcome"] == "rejected" and status["pending"] >= 1
        assert status["next_attempt_at"] is not None and status["state"] == "active"
        api.play_to_end(game)
        mine = messages(api)
        wait_until(lambda: len(receiver.ids) >= failing + len(mine), "all delivered")
        assert receiver.ids == [first["id"]] * failing + [m["id"] for m in mine]
        times = [d.at for d in receiver.deliveries[: failing + 1]]
        waits = [later - earlier for earlier, later in itertools.pairwise(times)]
        assert waits[0] >= 0.9 and waits[1] >= 1.9 and waits[2] >= 1.9  # 1 s, doubled, capped
        scraped = api.client.get("/metrics").text
        assert f'cardledger_webhook_deliveries_total{{outcome="rejected"}} {failing}.0' in scraped


def test_a_webhook_failing_too_long_is_paused_until_resumed(
    settings: Settings, receiver: Receiver
) -> None:
    healthy = {"on": False}
    receiver.status = lambda number: 204 if healthy["on"] else 503
    with hooked_api(
        settings, receiver, webhook_retry_first=1, webhook_retry_most=1, webhook_give_up=1
    ) as api:
        api.register(4)
        register_hook(api, receiver)
        api.started(4)

        wait_until(lambda: hook_status(api)["state"] == "failing", "the webhook paused")
        tried = len(receiver.ids)
        assert "cardledger_webhook_failing 1.0" in api.client.get("/metrics").text
        healthy["on"] = True
        resumed = api.client.post("/players/me/webhook/resume", headers=api.auth(0))
        assert resumed.status_code == 200 and resumed.json()["state"] == "active"
        wait_until(lambda: hook_status(api)["pending"] == 0, "delivered after the resume")
        assert len(receiver.ids) > tried
        assert api.client.delete("/players/me/webhook", headers=api.auth(0)).status_code == 204
        gone = api.client.delete("/players/me/webhook", headers=api.auth(0))
        assert problem(gone) == (404, "no_webhook")


def test_replacing_a_webhook_keeps_its_cursor_and_changes_its_key(
    api: Api, receiver: Receiver
) -> None:
    api.register(4)
    api.started(4)
    first = register_hook(api, receiver)
    second = register_hook(api, receiver)
    assert first["signing_key"] != second["signing_key"]
    assert second["cursor"] == first["cursor"]
    created = datetime.fromisoformat(second["created_at"])
    assert created >= datetime.fromisoformat(first["created_at"])


def test_a_rebuild_of_the_read_models_sends_nothing_again(api: Api, receiver: Receiver) -> None:
    """The webhook's cursor is a message id, and a rebuild derives the same ids."""
    api.register(4)
    register_hook(api, receiver)
    game = api.started(4)
    api.play_once(game)
    first = messages(api)
    wait_until(lambda: hook_status(api)["cursor"] == first[-1]["id"], "delivered")
    api.ledger.read_models.rebuild()
    api.play_to_end(game)
    every = messages(api)
    wait_until(lambda: hook_status(api)["cursor"] == every[-1]["id"], "delivered again")
    assert receiver.ids == [message["id"] for message in every]


def test_a_slow_receiver_holds_up_only_its_own_messages(
    settings: Settings, receiver: Receiver
) -> None:
    receiver.hold = 1
    waits = {"webhook_timeout": int(BOUND)}  # the held delivery is not given up meanwhile
    with receiving() as other, hooked_api(settings, receiver, other, **waits) as api:
        try:
            api.register(4)
            register_hook(api, receiver, seat=0)
            register_hook(api, other, seat=1)
            game = api.started(4)
            assert receiver.holding.wait(BOUND)
            api.play_to_end(game)
            theirs = [message["id"] for message in messages(api, seat=1)]
            wait_until(lambda: other.ids == theirs, "the other webhook's messages, all of them")
            assert receiver.ids == [messages(api)[0]["id"]]  # still held: nothing after it went
        finally:
            receiver.released.set()  # else the app's shutdown waits for the held answer
        mine = [message["id"] for message in messages(api)]
        wait_until(lambda: receiver.ids == mine, "the held webhook's messages, in order")


def test_an_answer_trickled_past_the_timeout_fails_the_attempt(settings: Settings) -> None:
    """The timeout bounds the whole attempt, not each read: sent a byte every 0.1 s, the whole
    answer would take 20 s, every read coming well within the 1 s timeout."""
    once = {"webhook_timeout": 1, "webhook_retry_first": 600}  # one attempt in this test
    with trickling(0.1) as trickler, hooked_api(settings, trickler, **once) as api:
        api.register(4)
        url = {"url": trickler.url}
        registered = api.client.put("/players/me/webhook", json=url, headers=api.auth(0))
        assert registered.status_code == 200, registered.text
        api.started(4)
        wait_until(lambda: hook_status(api)["last_outcome"] is not None, "an attempt")
        status = hook_status(api)
        assert status["last_outcome"] == "unreachable", status
        assert "ReadTimeout" in status["last_error"] and status["last_status"] is None
        assert status["pending"] >= 1 and status["delivered"] == 0
        wait_until(lambda: trickler.sent, "the deliverer hung up")
        assert trickler.sent[0] < len(TRICKLED_ANSWER)


def test_a_redirect_is_not_followed(api: Api, receiver: Receiver) -> None:
    receiver.status = lambda number: 307
    receiver.redirect = receiver.url + "/elsewhere"
    api.register(4)
    register_hook(api, receiver)
    api.started(4)
    wait_until(lambda: hook_status(api)["last_status"] == 307, "a failed attempt")
    assert hook_status(api)["last_outcome"] == "rejected"
    assert all(delivery.headers.get("webhook-id") for delivery in receiver.deliveries)
    assert {delivery.id for delivery in receiver.deliveries} == {messages(api)[0]["id"]}


def test_a_target_the_operator_no_longer_allows_gets_nothing(
    settings: Settings, receiver: Receiver
) -> None:
    with hooked_api(settings, receiver) as api:
        api.register(4)
        register_hook(api, receiver)
        tokens = list(api.tokens)
    forbidden = msgspec.structs.replace(settings, webhook_allow="https://elsewhere.example")
    ledger = Cardledger(forbidden)
    with TestClient(create_app(forbidden, ledger)) as client:
        api = Api(client, ledger)
        api.tokens = tokens
        api.started(4)
        wait_until(lambda: hook_status(api)["last_outcome"] == "not_allowed", "an attempt")
        status = hook_status(api)
        assert status["failures"] >= 1 and status["pending"] >= 1
        assert "allow-list" in status["last_error"]
        assert (
            'cardledger_webhook_deliveries_total{outcome="not_allowed"}'
            in client.get("/metrics").text
        )
    assert receiver.deliveries == []
