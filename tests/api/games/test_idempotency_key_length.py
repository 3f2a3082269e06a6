"""The Idempotency-Key at its bounds: exactly the longest length is taken, one character more
(or none) is refused."""

from __future__ import annotations

from service.http.dependencies import MAX_IDEMPOTENCY_KEY
from tests.support.client import Api


def test_the_longest_idempotency_key_is_taken_and_one_more_character_is_not(api: Api) -> None:
    api.register(1)
    body = {"variant": "open-hand", "seats": 2}
    longest = "k" * MAX_IDEMPOTENCY_KEY
    taken = api.client.post(
        "/games", json=body, headers={**api.auth(0), "Idempotency-Key": longest}
    )
    assert taken.status_code == 201, taken.text
    too_long = api.client.post(
        "/games", json=body, headers={**api.auth(0), "Idempotency-Key": longest + "k"}
    )
    assert (too_long.status_code, too_long.json()["code"]) == (400, "invalid_idempotency_key")
    empty = api.client.post("/games", json=body, headers={**api.auth(0), "Idempotency-Key": ""})
    assert (empty.status_code, empty.json()["code"]) == (400, "invalid_idempotency_key")
