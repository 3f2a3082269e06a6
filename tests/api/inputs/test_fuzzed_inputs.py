"""Odd input at every field of every endpoint: never a 5xx, always a problem with a code, and a
refused request changes nothing. Hypothesis generates the input: JSON of every shape, Unicode
digits, huge numbers, wrong types; header values as the raw UTF-8 bytes a careless client sends.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from service.http.app import create_app
from service.settings import NO_LIMITS, Settings

ODD_TEXT = st.text(
    alphabet=st.sampled_from([*"0123456789-+.eE:x ", "²", "٠", "٣", "９", "ⅷ", "\u200b", "é", "🂡"]),
    max_size=12,
) | st.text(max_size=12)
NUMBERS = st.integers(min_value=-(10**30), max_value=10**30) | st.floats(
    allow_nan=False, allow_infinity=False
)
SCALARS = st.none() | st.booleans() | NUMBERS | ODD_TEXT
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ODD_TEXT, inner, max_size=3),
    max_leaves=8,
)
EXAMPLES = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


class World:
    """One server with a player, a running game, and a way to see if anything changed."""

    def __init__(self, client: TestClient[Any]) -> None:
        self.client = client
        tokens = [client.post("/players", json={"name": n}).json()["token"] for n in "AB"]
        self.auth = {"Authorization": f"Bearer {tokens[0]}"}
        created = client.post(
            "/games", json={"variant": "open-hand", "seats": 2}, headers=self.auth
        )
        self.game = created.json()["game_id"]
        client.post(f"/games/{self.game}/join", headers={"Authorization": f"Bearer {tokens[1]}"})

    def state(self) -> tuple[int, int]:
        public = self.client.get(f"/games/{self.game}").json()
        games = self.client.get("/games").json()
        return public["version"], len(games)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    directory = tmp_path_factory.mktemp("fuzz")
    app = create_app(Settings(data_dir=directory, admin_token="fuzz-admin", limits=NO_LIMITS))
    with TestClient(app) as client:
        yield World(client)


def assert_refused_cleanly(world: World, answer: Any, before: tuple[int, int]) -> None:
    assert answer.status_code < 500, answer.text
    if answer.status_code >= 400:
        assert answer.headers["content-type"].startswith("application/problem+json")
        assert answer.json()["code"]
        assert world.state() == before


def body_for(fields: list[str]) -> st.SearchStrategy[Any]:
    """Either the endpoint's own field names with odd values, or any JSON at all."""
    return st.fixed_dictionaries({}, optional=dict.fromkeys(fields, JSON)) | JSON


@given(body=body_for(["name"]))
@EXAMPLES
def test_registration(world: World, body: Any) -> None:
    before = world.state()
    answer = world.client.post("/players", json=body)
    if answer.status_code == 201:
        return  # a valid name: a new player, nothing else changed
    assert_refused_cleanly(world, answer, before)


@given(body=body_for(["variant", "seats", "options", "client_seed"]), key=ODD_TEXT)
@EXAMPLES
def test_game_creation(world: World, body: Any, key: str) -> None:
    before = world.state()
    headers = {**world.auth, "Idempotency-Key": key.encode()}
    answer = world.client.post("/games", json=body, headers=headers)
    if answer.status_code != 201:
        assert_refused_cleanly(world, answer, before)


@given(body=body_for(["type", "card", "cards", "declared", "choice"]), match=ODD_TEXT)
@EXAMPLES
def test_commands(world: World, body: Any, match: str) -> None:
    before = world.state()
    headers = {**world.auth, "If-Match": match.encode()}
    answer = world.client.post(f"/games/{world.game}/commands", json=body, headers=headers)
    if answer.status_code != 200:
        assert_refused_cleanly(world, answer, before)


@given(body=body_for(["client_seed"]))
@EXAMPLES
def test_joins(world: World, body: Any) -> None:
    before = world.state()
    answer = world.client.post(f"/games/{world.game}/join", json=body, headers=world.auth)
    assert_refused_cleanly(world, answer, before)


@given(
    path=st.sampled_from(
        ["/games", "/leaderboard", "/games/{game}/events", "/games/{game}/replay"]
    ),
    params=st.dictionaries(
        st.sampled_from(["status", "variant", "after", "limit", "cursor", "perspective", "from"]),
        ODD_TEXT | NUMBERS.map(str),
        max_size=4,
    ),
)
@EXAMPLES
def test_query_parameters(world: World, path: str, params: dict[str, str]) -> None:
    before = world.state()
    answer = world.client.get(path.format(game=world.game), params=params, headers=world.auth)
    assert_refused_cleanly(world, answer, before)


@given(last=ODD_TEXT, ticket=ODD_TEXT, game=ODD_TEXT)
@EXAMPLES
def test_stream_headers_tickets_and_paths(world: World, last: str, ticket: str, game: str) -> None:
    before = world.state()
    answer = world.client.get(
        f"/games/{world.game}/stream",
        params={"ticket": ticket},
        headers={"Last-Event-ID": last.encode()},
    )
    assert_refused_cleanly(world, answer, before)
    answer = world.client.get(f"/games/{quote(game, safe='')}/view", headers=world.auth)
    assert_refused_cleanly(world, answer, before)
