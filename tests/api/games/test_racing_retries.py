"""Retries that race never lie: one key and one body always get the original answer, however
many arrive at once and on however many processes; the same key with another body is 422."""

from __future__ import annotations

import functools
from pathlib import Path

import httpx
import pytest

from service.settings import Settings
from tests.support.servers import running_server
from tests.support.threads import at_once

ROUNDS = 20
RETRIES = 20


def new_connection_each_time(base: str) -> httpx.Client:
    # A generous timeout: on a loaded machine forty requests at once queue for a while.
    return httpx.Client(base_url=base, timeout=60, limits=httpx.Limits(max_keepalive_connections=0))


def miscounted(first: list[httpx.Response], second: list[httpx.Response], reused: set[int]) -> int:
    """Wrong answers: any of the identical requests not answered with the one original, any
    reuse of the key with another body not refused with 422."""
    originals = {answer.text for answer in first if answer.status_code == 200}
    wrong = sum(answer.status_code != 200 for answer in first) + (len(originals) != 1)
    for index, answer in enumerate(second):
        if index in reused:
            code = answer.json().get("code")
            wrong += (answer.status_code, code) != (422, "idempotency_key_reused")
        else:
            wrong += answer.status_code != 200 or answer.text not in originals
    return wrong


def race_retries(base: str, rounds: int) -> int:
    """Wrong answers over ``rounds`` rounds of racing retries (see the module's docstring)."""
    clients = [new_connection_each_time(base) for _ in range(RETRIES)]
    http = clients[0]
    tokens = [http.post("/players", json={"name": n}).json()["token"] for n in ("Ann", "Ben")]
    auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
    reused = {index for index in range(RETRIES) if index % 4 == 1}
    wrong = 0
    try:
        for round_number in range(rounds):
            game_id = http.post(
                "/games", json={"variant": "open-hand", "seats": 2}, headers=auth[0]
            ).json()["game_id"]
            http.post(f"/games/{game_id}/join", headers=auth[1]).raise_for_status()
            seat = http.get(f"/games/{game_id}").json()["to_act"][0]
            legal = http.get(f"/games/{game_id}/view", headers=auth[seat]).json()["legal_commands"]
            play, other = [c for c in legal if c["type"] == "play"][:2]
            post = functools.partial(
                httpx.Client.post,
                url=f"/games/{game_id}/commands",
                headers={**auth[seat], "Idempotency-Key": f"round-{round_number}"},
            )
            # Twenty copies of one request at once: one is carried out, all get its answer;
            # then more copies racing requests that reuse the key with another body.
            first = at_once([functools.partial(post, client, json=play) for client in clients])
            second = at_once(
                [
                    functools.partial(post, client, json=other if index in reused else play)
                    for index, client in enumerate(clients)
                ]
            )
            wrong += miscounted(first, second, reused)
            events = http.get(f"/games/{game_id}/events").json()["events"]
            wrong += sum(event["type"] == "CardPlayed" for event in events) != 1
    finally:
        for client in clients:
            client.close()
    return wrong


@pytest.mark.parametrize("workers", [1, 2])
def test_concurrent_retries_all_get_the_original_answer(
    settings: Settings, tmp_path: Path, workers: int
) -> None:
    settings = Settings(database_url=settings.database_url, data_dir=tmp_path)
    with running_server(settings, tmp_path, workers=workers) as base:
        wrong = race_retries(base, ROUNDS)
    assert wrong == 0, f"{wrong} wrong answers in {ROUNDS} rounds of {RETRIES}"
