"""Test databases on the shared PostgreSQL server: named with their creation time, and swept.

A run killed before its teardown leaves its database behind. Each run, when it starts, drops
the test databases that are both old and unused. Other runs (CI, another session) share the
server, so a database is dropped only if it is older than ``STALE_AFTER`` (far longer than any
run) and nobody is connected to it; a live run always is, since it holds a connection to its
database from creation to teardown (see the ``postgres_database`` fixture).
"""

from __future__ import annotations

import re
import time
import uuid
from datetime import timedelta

import psycopg
from psycopg import sql

TEST_DATABASE_PREFIX = "cardledger_test_"
STALE_AFTER = timedelta(hours=3)

CANDIDATES = "SELECT datname FROM pg_database WHERE starts_with(datname, %s)"
# Seconds since a database's files were made: the age of one named before the time went into
# the name. Needs a superuser or pg_read_server_files; without either, its age is unknown.
FILE_AGE = """
SELECT extract(epoch FROM now() - (pg_stat_file('base/' || oid || '/PG_VERSION')).modification)
  FROM pg_database
 WHERE datname = %s
"""


def new_test_database_name(prefix: str = TEST_DATABASE_PREFIX) -> str:
    """``<prefix><unix time>_<random hex>``: its age can be read from its name."""
    return f"{prefix}{int(time.time())}_{uuid.uuid4().hex[:12]}"


def created_at(name: str, prefix: str = TEST_DATABASE_PREFIX) -> float | None:
    """The unix time in a test database's name; None for the older ``<prefix><hex>`` names."""
    found = re.fullmatch(re.escape(prefix) + r"(\d+)_[0-9a-f]+", name)
    return float(found[1]) if found else None


def is_test_database(name: str, prefix: str = TEST_DATABASE_PREFIX) -> bool:
    return bool(re.fullmatch(re.escape(prefix) + r"(\d+_)?[0-9a-f]+", name))


def sweep_stale_databases(
    admin: psycopg.Connection[tuple[object, ...]],
    *,
    prefix: str = TEST_DATABASE_PREFIX,
    older_than: timedelta = STALE_AFTER,
) -> list[str]:
    """Drop the test databases older than ``older_than`` that nobody is connected to; returns
    their names. ``admin`` is an autocommit connection to another database of the server."""
    rows = admin.execute(CANDIDATES, (prefix,)).fetchall()
    dropped = []
    for (name,) in rows:
        if not is_test_database(name, prefix):
            continue
        age = age_of(admin, name, prefix)
        if age is None or age <= older_than.total_seconds():
            continue  # young, or of unknown age: perhaps another run's, in use right now
        try:
            # Without FORCE, PostgreSQL refuses to drop a database anyone is connected to.
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        except psycopg.errors.ObjectInUse:
            continue  # in use: a live run's
        dropped.append(name)
    return dropped


def age_of(admin: psycopg.Connection[tuple[object, ...]], name: str, prefix: str) -> float | None:
    """Seconds since the database was made: from its name, else from the server's files."""
    named_at = created_at(name, prefix)
    if named_at is not None:
        return time.time() - named_at
    try:
        row = admin.execute(FILE_AGE, (name,)).fetchone()
    except (psycopg.errors.InsufficientPrivilege, psycopg.errors.UndefinedFile):
        return None  # no right to look, or dropped meanwhile
    return float(row[0]) if row and row[0] is not None else None
