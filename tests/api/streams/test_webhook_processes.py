"""Webhook delivery as promised with real server processes, on both stores: at least once, in
order, signed, with only the message in flight repeated when the delivering process is
killed (SIGKILL) mid-delivery, whether the next process is a restart or a second process
already running beside it; and, while two processes serve one store, nothing sent twice.
"""

from __future__ import annotations

import os
import signal
from functools import partial
from itertools import groupby
from pathlib import Path

import httpx
import pytest

from service.settings import Settings
from tests.api.streams.test_player_stream import every_message, register, two_seat_game
from tests.api.streams.test_stream import play
from tests.support.servers import server_process, wait_until_ready
from tests.support.threads import BOUND, wait_until
from tests.support.webhook_receiver import Receiver, receiving

HELD = 3  # the delivery the receiver holds unanswered while the server is killed


@pytest.fixture
def store(settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The test's store for server processes; their webhook settings in the environment they
    inherit (short retries; a receiver's answer awaited longer than any test takes)."""
    monkeypatch.setenv("CARDLEDGER_WEBHOOK_RETRY_FIRST", "1")
    monkeypatch.setenv("CARDLEDGER_WEBHOOK_RETRY_MOST", "1")
    monkeypatch.setenv("CARDLEDGER_WEBHOOK_TIMEOUT", str(int(BOUND)))
    return Settings(database_url=settings.database_url, data_dir=tmp_path, admin_token="t")


def allow(monkeypatch: pytest.MonkeyPatch, *receivers: Receiver) -> None:
    origins = ",".join(receiver.url.removesuffix("/hook") for receiver in receivers)
    monkeypatch.setenv("CARDLEDGER_WEBHOOK_ALLOW", origins)


def hook(http: httpx.Client, auth: dict[str, str], receiver: Receiver) -> None:
    answer = http.put("/players/me/webhook", json={"url": receiver.url}, headers=auth)
    assert answer.status_code == 200, answer.text
    receiver.key = answer.json()["signing_key"]


def kill(process_id: int) -> None:
    os.killpg(process_id, signal.SIGKILL)  # its whole group: a supervisor's workers too


def delivered_all(receiver: Receiver, ids: list[str]) -> bool:
    return [key for key, _ in groupby(receiver.ids)] == ids


def test_a_kill_mid_delivery_repeats_only_the_message_in_flight(
    store: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with receiving() as receiver:
        allow(monkeypatch, receiver)
        receiver.hold = HELD
        with server_process(store, tmp_path) as first, httpx.Client(base_url=first.base) as http:
            wait_until_ready(first.base, first.process)
            ann, ben = register(http, "Ann", "Ben")
            hook(http, ann, receiver)
            game = two_seat_game(http, ann, ben)
            play(http, game, [ann, ben], moves=6)
            assert receiver.holding.wait(BOUND)
            kill(first.process.pid)
        receiver.released.set()  # its answer goes to a dead connection: nobody hears it
        with server_process(store, tmp_path) as second, httpx.Client(base_url=second.base) as http:
            wait_until_ready(second.base, second.process)
            play(http, game, [ann, ben])
            ids = [message["id"] for message in every_message(http, ann)]
            wait_until(partial(delivered_all, receiver, ids), "every message delivered")

            def acknowledged() -> bool:  # the last answer reaches the receiver before its record
                status = http.get("/players/me/webhook", headers=ann).json()
                return bool(status["cursor"] == ids[-1] and status["pending"] == 0)

            wait_until(acknowledged, "the cursor at the last message")
    assert len(ids) > HELD and ids[-1].endswith("game_over")
    assert receiver.ids == ids[:HELD] + ids[HELD - 1 :]  # the held one twice, nothing else
    assert all(delivery.signed for delivery in receiver.deliveries)


def test_two_processes_deliver_everything_once_and_a_standby_takes_over(
    store: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with receiving() as to_ann, receiving() as to_ben:
        allow(monkeypatch, to_ann, to_ben)
        to_ann.hold = HELD
        with (
            server_process(store, tmp_path) as one,
            httpx.Client(base_url=one.base) as via_one,
        ):
            wait_until_ready(one.base, one.process)
            with (
                server_process(store, tmp_path) as two,
                httpx.Client(base_url=two.base) as via_two,
            ):
                wait_until_ready(two.base, two.process)
                ann, ben = register(via_one, "Ann", "Ben")
                hook(via_one, ann, to_ann)
                hook(via_two, ben, to_ben)
                first = two_seat_game(via_one, ann, ben)
                play(via_two, first, [ann, ben], moves=6)
                assert to_ann.holding.wait(BOUND)
                wait_until(lambda: to_ben.ids, "a delivery to Ben")
                so_far = to_ben.ids  # two processes, one deliverer: nothing twice
                assert so_far == [key for key, _ in groupby(so_far)]
                kill(one.process.pid)  # the deliverer, or its standby: either way nothing is lost
                to_ann.released.set()
                play(via_two, first, [ann, ben])
                second = two_seat_game(via_two, ben, ann)
                play(via_two, second, [ben, ann])
                for auth, receiver in ((ann, to_ann), (ben, to_ben)):
                    ids = [message["id"] for message in every_message(via_two, auth)]
                    wait_until(partial(delivered_all, receiver, ids), "every message delivered")
                    # At most the one in flight at the kill again (each webhook has its own).
                    assert len(receiver.ids) <= len(ids) + 1
                    assert all(delivery.signed for delivery in receiver.deliveries)
