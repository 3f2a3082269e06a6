"""No channel ever serves a seat a card it may not know, in any variant.

What seat N may know at a step is worked out here, independently of the service's redaction:
the full log (as the operator sees it) with every secret not owned by N removed, plus N's own
hand. Everything served to N (its view, its event pages, its replay frames, its live stream and
the error bodies its commands get) must contain no other card; nor may what a spectator is
served contain a card outside the log with every secret removed. Games are random and seeded;
the failing seed is in the message.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from litestar.testing import TestClient

from service.application import Cardledger
from service.http.app import create_app
from service.live.streams import Live
from service.settings import NO_LIMITS, Settings
from service.tools.simulate import Table
from tests.property.playouts import cards_in, known_to
from tests.support.client import SHORT_GAMES, Api

CHECKS_PER_GAME = 6


@pytest.fixture
def sqlite_api(tmp_path: Path) -> Iterator[Api]:
    settings = Settings(data_dir=tmp_path, admin_token="leak-admin", limits=NO_LIMITS)
    ledger = Cardledger(settings)
    with TestClient(create_app(settings, ledger)) as client:
        yield Api(client, ledger)


def replay_text(api: Api, game_id: str, perspective: str, headers: dict[str, str]) -> str:
    texts, start = [], 1
    while start is not None:
        page = api.client.get(
            f"/games/{game_id}/replay?perspective={perspective}&from={start}&limit=200",
            headers=headers,
        )
        assert page.status_code == 200, page.text
        texts.append(page.text)
        start = page.json()["next_from"]
    return "".join(texts)


def probe_error(api: Api, game_id: str, seat: int, legal: list[dict[str, Any]], card: str) -> str:
    """An illegal command naming somebody else's card: the refusal must not tell anything."""
    template = next((c for c in legal if "card" in c or "cards" in c), None)
    if template is None:
        return ""
    body = {**template, **({"card": card} if "card" in template else {"cards": [card]})}
    response = api.command(game_id, seat, body)
    return response.text if response.status_code >= 400 else ""


def streamed(live: Live, game_id: str, token: str) -> str:
    """What the live stream sends the seat (the real generator), up to its current head."""
    principal = live.ledger.players.authenticate(token)

    async def collect() -> str:
        messages = []
        stream = live.stream(principal, UUID(game_id), 0)
        async for message in stream:
            messages.append(message.encode().decode())
            if message.event == "view":
                break
        await stream.aclose()
        return "".join(messages)

    return asyncio.run(collect())


def as_json(value: Any) -> str:
    return json.dumps(value)


def check_step(api: Api, game_id: str, seat: int, rng: random.Random) -> None:
    full = api.events(game_id, headers=api.admin())
    everything = cards_in(as_json(full))
    mine = api.view(game_id, seat)
    allowed = cards_in(as_json(known_to(full, seat))) | set(mine["hand"] or ())
    hidden = sorted(everything - allowed)
    served = api.client.get(f"/games/{game_id}/view", headers=api.auth(seat)).text
    served += as_json(api.events(game_id, seat))
    served += replay_text(api, game_id, f"seat:{seat}", api.auth(seat))
    served += streamed(api.live, game_id, api.tokens[seat])
    if hidden:
        served += probe_error(api, game_id, seat, mine["legal_commands"], rng.choice(hidden))
    leaked = cards_in(served) - allowed
    assert not leaked, f"seat {seat} was served {sorted(leaked)}"
    spectator = api.client.get(f"/games/{game_id}").text + as_json(api.events(game_id))
    spectator += replay_text(api, game_id, "public", {})
    leaked = cards_in(spectator) - cards_in(as_json(known_to(full, None)))
    assert not leaked, f"a spectator was served {sorted(leaked)}"


@pytest.mark.parametrize("variant", sorted(SHORT_GAMES))
def test_no_channel_leaks_a_card(sqlite_api: Api, variant: str) -> None:
    api = sqlite_api
    seats, options = SHORT_GAMES[variant]
    for seed in range(2):
        rng = random.Random(f"{variant}/{seed}")
        table = Table(api.client, variant, seats, options)
        api.tokens = table.tokens
        steps = 0
        try:
            # Only while the game runs: once it is over, everything may be seen.
            while steps < 2000 and api.view(table.game_id)["status"] == "active":
                if rng.random() < 0.04 or steps < CHECKS_PER_GAME:
                    check_step(api, table.game_id, rng.randrange(seats), rng)
                table.step(rng)
                steps += 1
        except AssertionError as error:
            raise AssertionError(f"{variant} seed {seed}, step {steps}: {error}") from error
