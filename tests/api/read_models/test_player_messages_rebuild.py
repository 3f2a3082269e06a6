"""Players' messages are a read model: rebuilt from the log they come out the same, with the
same ids, however the projector's batches fall."""

from __future__ import annotations

import pytest

from service.read_models import models
from tests.support.client import Api


def everyone(api: Api) -> list[object]:
    pages = []
    for seat in range(len(api.tokens)):
        answer = api.client.get("/players/me/messages?limit=500", headers=api.auth(seat))
        assert answer.status_code == 200, answer.text
        pages.append(answer.json()["messages"])
    return pages


def test_a_rebuild_in_small_batches_derives_the_same_messages(
    quiet_api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = quiet_api
    for _ in range(2):
        api.play_to_end(api.started(3))
    api.started(3)
    read_models = api.ledger.read_models
    read_models.catch_up()
    before = everyone(api)
    assert all(before) and before[0][0]["kind"] == "game_started"
    for size in (5, 6, 7):  # a command writes 1 to 4 events: batches end inside some of them
        monkeypatch.setattr(models, "BATCH", size)
        read_models.reset()
        read_models.catch_up()
        assert everyone(api) == before, size
