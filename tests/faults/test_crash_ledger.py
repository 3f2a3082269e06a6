"""SIGKILL under load loses nothing the server acknowledged (a short run; `make torture` runs a
long one)."""

from __future__ import annotations

from pathlib import Path

from service.settings import Settings
from tests.faults.crash_ledger import run


def test_every_acknowledged_command_survives_kills(settings: Settings, tmp_path: Path) -> None:
    settings = Settings(database_url=settings.database_url, data_dir=tmp_path)
    outcome = run(settings, tmp_path, kills=3, bots=4, seed=1)
    assert outcome.kills == 3 and outcome.acknowledged > 20
    assert (outcome.lost, outcome.broken_chains) == (0, 0), outcome
