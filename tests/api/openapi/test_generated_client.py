"""A client generated from openapi/openapi.json with openapi-python-client plays every variant.

The bot (tests/api/openapi/clients/python_bot.py) uses the generated package as a third party
would: ``mypy --strict`` checks the two together, and neither the bot nor this test casts. The bot
sends only entries of ``legal_commands`` exactly as listed, against a real server; every answer
must parse into the model the document promises (a union of per-variant models picks the
variant's own, an event payload the model of its ``type``, a sealed command a command model).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from service.settings import Settings
from tests.support.client import SHORT_GAMES
from tests.support.servers import running_server

ROOT = Path(__file__).resolve().parents[3]
DOCUMENT = ROOT / "openapi" / "openapi.json"
BOT = Path(__file__).parent / "clients" / "python_bot.py"
GENERATOR = "openapi-python-client>=0.29,<0.30"  # as in pyproject.toml's dev dependencies
PACKAGE = "cardledger_client"
TIMEOUT = 600  # seconds for generating, or for type-checking, on a busy machine
# What would make the bot's types a matter of trust rather than of the generated code.
ESCAPES = re.compile(r"\bcast\(|type:\s*ignore|\bAny\b|getattr\(")


def ensure_generator() -> None:
    """`make test` installs it (a dev dependency); a bare checkout's venv may not have it."""
    if importlib.util.find_spec("openapi_python_client") is None:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", GENERATOR], check=True)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the generated package and the bot beside it."""
    ensure_generator()
    out = tmp_path_factory.mktemp("generated")
    config = out / "config.yaml"
    config.write_text("post_hooks: []\n")  # no formatting pass: nobody reads this code
    command = [
        sys.executable, "-c", "from openapi_python_client.cli import app; app()",
        "generate", "--path", str(DOCUMENT), "--output-path", str(out / PACKAGE),
        "--meta", "none", "--config", str(config), "--fail-on-warning",
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    shutil.copy(BOT, out / "python_bot.py")
    (out / "mypy.ini").write_text("[mypy]\nstrict = True\n")  # not the repository's settings
    return out


@pytest.fixture(scope="module")
def bot(generated: Path) -> Iterator[ModuleType]:
    sys.path.insert(0, str(generated))
    try:
        yield importlib.import_module("python_bot")
    finally:
        sys.path.remove(str(generated))
        for name in [n for n in sys.modules if n.split(".")[0] in (PACKAGE, "python_bot")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("data")
    with running_server(Settings(data_dir=data), data) as base:
        yield base


def test_the_bot_and_the_generated_client_type_check_with_no_casts(generated: Path) -> None:
    assert not ESCAPES.findall(BOT.read_text())
    command = [
        sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "python_bot.py",
    ]  # fmt: skip
    result = subprocess.run(
        command, cwd=generated, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("variant", sorted(SHORT_GAMES))
def test_a_generated_client_plays_the_variant_to_the_end(
    bot: ModuleType, server: str, variant: str
) -> None:
    seats, options = SHORT_GAMES[variant]
    played = bot.play_to_the_end(server, variant)
    body = played.game.to_dict()  # the short game, with every other option at its default
    assert (body["variant"], body["seats"]) == (variant, seats)
    assert options.items() <= body.get("options", {}).items()
    final = played.final
    assert final.variant == variant and isinstance(final, bot.VIEWS)
    assert type(final).__name__ == members("View")[variant]
    assert final.status == "finished", final.to_dict()
    assert final.winners and played.sent > 0
    assert list(played.board.winners) == list(final.winners) == list(played.finished.winners)
    assert len(played.events) == final.version
    events = members("GameEvent")
    for event in played.events:  # each payload parsed as the model of its own type
        assert type(event.payload).__name__ == events[event.type_.value]
        assert event.to_dict() == event.from_dict(event.to_dict()).to_dict()
    assert played.own_commands, "seat 0 sees the commands it sent"
    assert all(type(command).__name__ in commands_of(variant) for command in played.own_commands)


def test_refusals_and_revalidation_come_back_typed(bot: ModuleType, server: str) -> None:
    seen = bot.refusals_and_revalidation(server)
    assert seen.vote_accepted  # vote_cancel: any seat, any time
    assert seen.refused.status == 409 and seen.not_your_turn, seen.refused.to_dict()
    assert seen.revalidated_status == 304 and seen.revalidated_body is None


def members(union: str) -> dict[str, str]:
    """A discriminated union's member schemas (the generated models' names), by tag."""
    document = json.loads(DOCUMENT.read_text())
    mapping = document["components"]["schemas"][union]["discriminator"]["mapping"]
    return {tag: target.rsplit("/", 1)[1] for tag, target in mapping.items()}


def commands_of(variant: str) -> set[str]:
    """The schemas of a variant's commands (``<Variant>Command``'s members)."""
    pascal = "".join(part.capitalize() for part in variant.split("-"))
    return set(members(f"{pascal}Command").values())
