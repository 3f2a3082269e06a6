"""Processes starting together on a fresh PostgreSQL schema all come up: creating the tables is
serialised by an advisory lock (it raced on pg_type's unique index before)."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

import psycopg
import pytest

pytestmark = pytest.mark.postgres
ROUNDS = 12


def test_two_processes_migrating_a_fresh_schema_at_once_both_succeed(
    postgres_database: str,
) -> None:
    failures = []
    for _ in range(ROUNDS):
        schema = f"race_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(postgres_database, autocommit=True) as db:
            db.execute(f'CREATE SCHEMA "{schema}"')
        env = {**os.environ, "CARDLEDGER_DATABASE_URL": f"{postgres_database}?schema={schema}"}
        command = [sys.executable, "-m", "service.tools.cli", "migrate"]
        starts = [
            subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True) for _ in range(2)
        ]
        for process in starts:
            _, errors = process.communicate(timeout=60)
            if process.returncode != 0:
                failures.append(errors.strip().splitlines()[-1:])
    assert failures == []
