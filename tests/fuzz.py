"""`make fuzz`: schemathesis drives a real server from its own OpenAPI document.

No generated request, however odd, may get a 5xx. (Not part of `make test`: the examples are
random, so it is a search, not a check that passes the same way every run.)
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx

from service.settings import Settings
from tests.support.servers import running_server


def scratch_config(directory: Path) -> Path:
    """A schemathesis.toml that keeps its cache (and the crash files under it) in ``directory``:
    by default it writes them under ./.schemathesis, inside the repository."""
    config = directory / "schemathesis.toml"
    config.write_text(f"[cache]\ndirectory = {json.dumps(str(directory / 'cache'))}\n")
    return config


def main() -> int:
    with tempfile.TemporaryDirectory() as directory:
        data, scratch = Path(directory) / "data", Path(directory) / "schemathesis"
        data.mkdir()
        scratch.mkdir()
        settings = Settings(data_dir=data, admin_token="fuzz-admin")
        with running_server(settings, data) as base:
            token = httpx.post(f"{base}/players", json={"name": "fuzz"}).json()["token"]
            command = [
                sys.executable, "-m", "schemathesis.cli",
                "--config-file", str(scratch_config(scratch)),
                "run", f"{base}/schema/openapi.json",
                "--header", f"Authorization: Bearer {token}",
                "--checks", "not_a_server_error", "--max-examples", "200",
            ]  # fmt: skip
            # Run from the scratch directory too: whatever else it keeps relative to where it runs
            # (Hypothesis's example database, reports) goes away with it, and the tree stays clean.
            return subprocess.run(command, cwd=scratch, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
