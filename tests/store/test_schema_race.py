"""Processes starting together on a fresh PostgreSQL schema all come up: creating the tables is
serialised by an advisory lock (it raced on pg_type's unique index before)."""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path

import psycopg
import pytest

from tests.servers import start_process, stop_process
from tests.threads import BOUND

pytestmark = pytest.mark.postgres
ROUNDS = 12


def test_two_processes_migrating_a_fresh_schema_at_once_both_succeed(
    postgres_database: str, tmp_path: Path
) -> None:
    failures = []
    for round_number in range(ROUNDS):
        schema = f"race_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(postgres_database, autocommit=True) as db:
            db.execute(f'CREATE SCHEMA "{schema}"')
        env = {**os.environ, "CARDLEDGER_DATABASE_URL": f"{postgres_database}?schema={schema}"}
        command = [sys.executable, "-m", "service.tools.cli", "migrate"]
        logs = [tmp_path / f"migrate-{round_number}-{side}.log" for side in "ab"]
        starts = [start_process(command, env=env, log=log) for log in logs]
        try:
            for process, log in zip(starts, logs, strict=True):
                if process.wait(timeout=BOUND) != 0:
                    failures.append(log.read_text().strip().splitlines()[-1:])
        finally:
            for process in starts:
                stop_process(process)
    assert failures == []
