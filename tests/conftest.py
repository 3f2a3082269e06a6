"""Shared fixtures: every test gets its own store (a SQLite file, or a PostgreSQL schema)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import msgspec
import psycopg
import pytest
from litestar.testing import TestClient

from service.application import Cardledger
from service.http.app import create_app
from service.settings import NO_LIMITS, Settings
from tests.support.client import Api
from tests.support.databases import new_test_database_name, sweep_stale_databases

pytest_plugins = ("tests.harness",)  # the backstop after the last test
POSTGRES_URL = os.environ.get(
    "CARDLEDGER_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
REQUIRE_POSTGRES = os.environ.get("CARDLEDGER_REQUIRE_POSTGRES") == "1"
ADMIN_TOKEN = "admin-" + uuid.uuid4().hex


def _with_database(url: str, database: str) -> str:
    base, _, _ = url.rpartition("/")
    return f"{base}/{database}"


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """A database of this test run's own, dropped at the end; those that killed runs left
    behind are swept first (tests/databases.py)."""
    try:
        admin = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as error:
        if REQUIRE_POSTGRES:
            pytest.fail(f"PostgreSQL is required but does not answer at {POSTGRES_URL}: {error}")
        pytest.skip(f"PostgreSQL does not answer at {POSTGRES_URL}")
    name = new_test_database_name()
    with admin:
        sweep_stale_databases(admin)
        admin.execute(f'CREATE DATABASE "{name}"')
        url = _with_database(POSTGRES_URL, name)
        try:
            # Held until the end: a database with a connection is never swept as a dead run's.
            with psycopg.connect(url, autocommit=True):
                yield url
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_url(postgres_database: str) -> str:
    """A schema of this test's own inside the run's database."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_database, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    return f"{postgres_database}?schema={schema}"


@pytest.fixture(params=["sqlite", "postgres"])
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    """A store of the test's own; rate and stream limits off (tests/api/operations/test_limits.py
    tests them), as the other tests play faster than any client would."""
    if request.param == "sqlite":
        return Settings(data_dir=tmp_path, admin_token=ADMIN_TOKEN, limits=NO_LIMITS)
    url = request.getfixturevalue("postgres_url")
    return Settings(database_url=url, data_dir=tmp_path, admin_token=ADMIN_TOKEN, limits=NO_LIMITS)


@pytest.fixture
def ledger(settings: Settings) -> Iterator[Cardledger]:
    app = Cardledger(settings)
    yield app
    app.close()


@pytest.fixture
def api(settings: Settings, ledger: Cardledger) -> Iterator[Api]:
    with TestClient(create_app(settings, ledger)) as client:
        yield Api(client, ledger)


@pytest.fixture
def quiet_api(settings: Settings) -> Iterator[Api]:
    """An app whose read models move only when the test says so (CARDLEDGER_PROJECTOR=external)."""
    quiet = msgspec.structs.replace(settings, projector="external")
    ledger = Cardledger(quiet)
    with TestClient(create_app(quiet, ledger)) as client:
        yield Api(client, ledger)
