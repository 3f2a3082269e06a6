"""A client generated from openapi/openapi.json with openapi-python-client plays every variant.

The generated package is imported as it comes and used only through its typed functions and
models: registration, creation, joining, views, commands (entries of ``legal_commands`` sent as
listed), scoreboard, events and a refusal, against a real server. Every answer must parse into
the model the document promises (a union of per-variant models picks the variant's own, an event
payload the model of its ``type``).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from service.settings import Settings
from tests.client import SHORT_GAMES
from tests.servers import running_server
from tests.threads import BOUND

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "openapi" / "openapi.json"
GENERATOR = "openapi-python-client>=0.29,<0.30"  # as in pyproject.toml's dev dependencies
PACKAGE = "cardledger_client"
SKIPPED = ("leave", "vote_cancel")  # a bot that leaves or votes to cancel never finishes
WAIT_SECONDS = BOUND  # for a deadline only the server can act on


class Generated:
    """The generated package's modules, by the names the document gives them."""

    def __init__(self, package: ModuleType) -> None:
        self.package = package
        self.models = importlib.import_module(f"{PACKAGE}.models")
        self.document = json.loads(DOCUMENT.read_text())

    def api(self, tag: str, operation: str) -> Any:
        return importlib.import_module(f"{PACKAGE}.api.{tag}.{operation}")

    def model(self, schema_name: str) -> Any:
        return getattr(self.models, schema_name)

    def by_discriminator(self, schema_name: str) -> dict[str, Any]:
        """A discriminated union's member models, by tag."""
        mapping = self.document["components"]["schemas"][schema_name]["discriminator"]["mapping"]
        return {tag: ref.rsplit("/", 1)[1] for tag, ref in mapping.items()}


def ensure_generator() -> None:
    """`make test` installs it (a dev dependency); a bare checkout's venv may not have it."""
    if importlib.util.find_spec("openapi_python_client") is None:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", GENERATOR], check=True)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Generated]:
    ensure_generator()
    out = tmp_path_factory.mktemp("generated")
    config = out / "config.yaml"
    config.write_text("post_hooks: []\n")  # no formatting pass: nobody reads this code
    command = [
        sys.executable,
        "-c",
        "from openapi_python_client.cli import app; app()",
        "generate",
        "--path",
        str(DOCUMENT),
        "--output-path",
        str(out / PACKAGE),
        "--meta",
        "none",
        "--config",
        str(config),
        "--fail-on-warning",
    ]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    sys.path.insert(0, str(out))
    try:
        yield Generated(importlib.import_module(PACKAGE))
    finally:
        sys.path.remove(str(out))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("data")
    with running_server(Settings(data_dir=data), data) as base:
        yield base


class Players:
    """Registered players, each with an authenticated client of the generated package."""

    def __init__(self, client: Generated, base: str, count: int) -> None:
        register = client.api("players", "register_player")
        anonymous = client.package.Client(base_url=base)
        self.clients = []
        for index in range(count):
            answer = register.sync(client=anonymous, body=client.model("CreatePlayer")(f"P{index}"))
            assert isinstance(answer, client.model("RegisteredPlayer")), answer
            self.clients.append(
                client.package.AuthenticatedClient(base_url=base, token=answer.token)
            )
        self.anonymous = anonymous

    def __getitem__(self, seat: int) -> Any:
        return self.clients[seat]


def variant_model(client: Generated, union: str, variant: str) -> Any:
    return client.model(client.by_discriminator(union)[variant])


def start(client: Generated, players: Players, variant: str) -> Any:
    seats, options = SHORT_GAMES[variant]
    creation = variant_model(client, "CreateGame", variant)
    body_ = creation.from_dict({"variant": variant, "seats": seats, "options": options})
    created = client.api("games", "create_game").sync(client=players[0], body=body_)
    assert isinstance(created, client.model("CommandResult")), created
    join = client.api("games", "join_game")
    for seat in range(1, seats):
        joined = join.sync(
            created.game_id, client=players[seat], body=client.model("JoinGame")(f"seat {seat}")
        )
        assert isinstance(joined, client.model("CommandResult")), joined
        assert joined.seat == seat
    return joined


def pick(view: Any, rng: random.Random) -> Any | None:
    """A random entry of the view's legal commands, sent as it is listed (a generated model)."""
    entries = [entry for entry in view.legal_commands if entry.type_ not in SKIPPED]
    return rng.choice(entries) if entries else None


def play(client: Generated, players: Players, variant: str, rng: random.Random) -> Any:
    """Seats the game waits for send random legal commands until it is over."""
    view_model = variant_model(client, "View", variant)
    get_game, get_view = client.api("games", "get_game"), client.api("games", "get_view")
    send = client.api("games", "send_command")
    result = start(client, players, variant)
    game_id, view, sent = result.game_id, result.view, 0
    waited_since = None
    while view.status.value == "active":
        mine = (
            get_view.sync(game_id, client=players[rng.choice(view.to_act)]) if view.to_act else None
        )
        command = pick(mine, rng) if mine is not None else None
        if command is None:  # only the server can move (a deadline): wait for it
            waited_since = waited_since or time.monotonic()
            assert time.monotonic() - waited_since < WAIT_SECONDS, "the game is stuck"
            time.sleep(0.05)
            view = get_game.sync(game_id, client=players.anonymous)
            continue
        waited_since = None
        assert isinstance(mine, view_model), type(mine)
        answer = send.sync(game_id, client=players[mine.seat], body=command)
        if isinstance(answer, client.model("Problem")):  # a deadline passed as we chose
            assert answer.status == 409, answer.to_dict()
            view = get_game.sync(game_id, client=players.anonymous)
            continue
        assert isinstance(answer, client.model("CommandResult")), answer
        view, sent = answer.view, sent + 1
    assert sent > 0
    return view


@pytest.mark.parametrize("variant", sorted(SHORT_GAMES))
def test_a_generated_client_plays_the_variant_to_the_end(
    generated: Generated, server: str, variant: str
) -> None:
    seats, _ = SHORT_GAMES[variant]
    players = Players(generated, server, seats)
    final = play(generated, players, variant, random.Random(variant))
    assert isinstance(final, variant_model(generated, "View", variant))
    assert final.status.value == "finished", final.to_dict()
    assert final.winners
    board = generated.api("games", "get_scoreboard").sync(final.game_id, client=players.anonymous)
    assert isinstance(board, generated.model("Scoreboard"))
    assert list(board.winners) == list(final.winners)
    events = every_event(generated, final.game_id, players.anonymous)
    assert len(events) == final.version and events[-1].type_.value == "GameFinished"
    for event in events:  # each payload parsed as the model of its own type
        model = generated.by_discriminator("GameEvent")[event.type_.value]
        assert type(event.payload).__name__ == model


def every_event(generated: Generated, game_id: Any, client: Any) -> list[Any]:
    list_events = generated.api("games", "list_events")
    events: list[Any] = []
    while True:
        page = list_events.sync(game_id, client=client, after=len(events), limit=500)
        assert isinstance(page, generated.model("EventPage")), page
        events += page.events
        if page.next_after >= page.head_version:
            return events


def test_refusals_and_revalidation_come_back_typed(generated: Generated, server: str) -> None:
    players = Players(generated, server, 4)
    started = start(generated, players, "open-hand")
    waiting = [seat for seat in range(4) if seat not in started.view.to_act]
    problem = generated.api("games", "send_command").sync(
        started.game_id,
        client=players[waiting[0]],
        body=generated.model("VoteCancel")(),
    )
    assert isinstance(problem, generated.model("CommandResult"))  # vote_cancel: any seat
    view = generated.api("games", "get_view")
    mine = view.sync(started.game_id, client=players[waiting[0]])
    assert all(entry.type_ != "play" for entry in mine.legal_commands), "not its turn"
    refused = generated.api("games", "send_command").sync(
        started.game_id,
        client=players[waiting[0]],
        body=generated.model("PlayCard")(card=mine.hand[0]),
    )
    assert isinstance(refused, generated.model("Problem"))
    assert refused.status == 409
    assert refused.code == generated.model("ProblemCode").NOT_YOUR_TURN
    first = view.sync_detailed(started.game_id, client=players[0])
    again = view.sync_detailed(
        started.game_id, client=players[0], if_none_match=first.headers["ETag"]
    )
    assert again.status_code == 304 and again.parsed is None
