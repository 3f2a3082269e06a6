"""Servers starting together on a fresh PostgreSQL schema all come up: creating the tables is
serialised by an advisory lock (it raced on pg_type's unique index before).

The two starts are threads released together, each on connections of its own: the race is in
the database, and threads meet there far closer together than processes that each take a
second or two to import the service, at a fraction of the cost."""

from __future__ import annotations

import functools
import uuid
from pathlib import Path

import psycopg
import pytest

from service.application import Cardledger
from service.settings import Settings
from tests.support.threads import at_once

pytestmark = pytest.mark.postgres
ROUNDS = 12


def start_and_stop(settings: Settings) -> None:
    Cardledger(settings).close()  # makes the tables, as each server's start does


def test_two_servers_migrating_a_fresh_schema_at_once_both_succeed(
    postgres_database: str, tmp_path: Path
) -> None:
    for _ in range(ROUNDS):
        schema = f"race_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(postgres_database, autocommit=True) as db:
            db.execute(f'CREATE SCHEMA "{schema}"')
        settings = Settings(database_url=f"{postgres_database}?schema={schema}", data_dir=tmp_path)
        at_once([functools.partial(start_and_stop, settings)] * 2)
