"""A TypeScript client made from openapi/openapi.json with openapi-typescript and openapi-fetch
type-checks under ``tsc --strict`` with no casts and plays every variant to the end.

The bot is tests/api/openapi/clients/typescript/bot.ts. Its packages (pinned by
package-lock.json) are installed once with ``npm ci`` into a cache outside the repository, keyed
by the lock file; the types are generated from the committed document on every run. Skipped only
where node is not installed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.settings import Settings
from tests.support.client import SHORT_GAMES
from tests.support.servers import running_server

ROOT = Path(__file__).resolve().parents[3]
DOCUMENT = ROOT / "openapi" / "openapi.json"
SOURCES = Path(__file__).parent / "clients" / "typescript"
NODE = shutil.which("node")
TIMEOUT = 600  # seconds for installing, generating or compiling, on a busy machine
GAME_TIMEOUT = 300
# Type assertions, non-null assertions and `any`: what would make the bot's types a matter of trust.
ESCAPES = re.compile(r"\bas\s+(?!const\b)\w|<\w+>\s*\w|\w!\s*[.;,)\]]|\bany\b|@ts-")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def run(command: list[str], cwd: Path, timeout: int = TIMEOUT) -> str:
    result = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
    return result.stdout + result.stderr


def cache_root() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardledger"


def installed() -> Path:
    """The pinned packages' node_modules, installed once per lock file (a concurrent run that
    installs the same one first wins; the other's copy is dropped)."""
    manifests = [SOURCES / "package.json", SOURCES / "package-lock.json"]
    digest = hashlib.sha256(b"".join(path.read_bytes() for path in manifests)).hexdigest()[:16]
    home = cache_root() / f"typescript-client-{digest}"
    if not (home / "node_modules").is_dir():
        npm = shutil.which("npm")
        assert npm is not None, "node is installed without npm"
        staging = cache_root() / f".installing-{uuid.uuid4().hex}"
        staging.mkdir(parents=True)
        try:
            for path in manifests:
                shutil.copy(path, staging / path.name)
            run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"], staging)
            staging.replace(home)
        except OSError:
            if not (home / "node_modules").is_dir():
                raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return home / "node_modules"


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bot, compiled against types generated from the committed document."""
    assert NODE is not None
    modules = installed()
    build = tmp_path_factory.mktemp("typescript")
    for name in ("bot.ts", "tsconfig.json", "package.json"):
        shutil.copy(SOURCES / name, build / name)
    (build / "node_modules").symlink_to(modules, target_is_directory=True)
    generator = modules / "openapi-typescript" / "bin" / "cli.js"
    output = run([NODE, str(generator), str(DOCUMENT), "--output", "schema.ts"], build)
    assert "⚠" not in output, output  # e.g. a discriminator that maps to no object
    run([NODE, str(modules / "typescript" / "bin" / "tsc"), "-p", "."], build)
    return build / "out" / "bot.js"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("data")
    with running_server(Settings(data_dir=data), data) as base:
        yield base


def test_the_bot_has_no_casts() -> None:
    source = re.sub(r"/\*.*?\*/", "", (SOURCES / "bot.ts").read_text(), flags=re.DOTALL)
    code = "\n".join(line.split("//")[0] for line in source.splitlines())  # not the comments
    assert not ESCAPES.findall(code)
    config = json.loads((SOURCES / "tsconfig.json").read_text())["compilerOptions"]
    assert config["strict"] is True


def test_the_escape_check_finds_a_cast() -> None:
    for cast in ("x as Command", "<View>data", "view!.table", "let x: any", "// @ts-ignore"):
        assert ESCAPES.search(cast), cast


@pytest.mark.parametrize("variant", sorted(SHORT_GAMES))
def test_a_typescript_client_plays_the_variant_to_the_end(
    compiled: Path, server: str, variant: str
) -> None:
    assert NODE is not None
    seats, options = SHORT_GAMES[variant]
    command = [NODE, str(compiled), server, variant, f"seed-{variant}"]
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=GAME_TIMEOUT, check=False
    )
    assert result.returncode == 0, result.stderr
    played: dict[str, Any] = json.loads(result.stdout)
    game = played["game"]
    assert (game["variant"], game["seats"]) == (variant, seats)
    assert options.items() <= game["options"].items()
    assert played["variant"] == variant and played["status"] == "finished", played
    assert played["winners"] and played["sent"] > 0
    assert played["scoreboard_winners"] == played["winners"] == played["finished_winners"]
    assert played["events"] == played["version"] and played["payload_types_match"]
    assert played["own_sealed_commands"] > 0, "seat 0 sees the commands it sent"
