"""`make fuzz`: schemathesis drives a real server from its own OpenAPI document.

No generated request, however odd, may get a 5xx. (Not part of `make test`: the examples are
random, so it is a search, not a check that passes the same way every run.)
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import httpx

from service.settings import Settings
from tests.servers import running_server


def main() -> int:
    with tempfile.TemporaryDirectory() as directory:
        settings = Settings(data_dir=Path(directory), admin_token="fuzz-admin")
        with running_server(settings, Path(directory)) as base:
            token = httpx.post(f"{base}/players", json={"name": "fuzz"}).json()["token"]
            command = [
                sys.executable, "-m", "schemathesis.cli", "run", f"{base}/schema/openapi.json",
                "--header", f"Authorization: Bearer {token}",
                "--checks", "not_a_server_error", "--max-examples", "200",
            ]  # fmt: skip
            return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
