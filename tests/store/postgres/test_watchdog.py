"""The PostgreSQL watchdog, close to the code: a cut statement is reported as a timeout, and only
that one; whatever the same connection does afterwards is reported as what it is."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from service.store.postgres.watchdog import StatementTimeout, Watchdog


class Refused(Exception):
    """Stands for an error of the statement itself (a version conflict, say)."""


@pytest.fixture
def connection() -> Iterator[SimpleNamespace]:
    """What the watchdog looks at in a psycopg connection: its socket."""
    ours, theirs = socket.socketpair()
    yield SimpleNamespace(pgconn=SimpleNamespace(socket=ours.fileno()))
    ours.close()
    theirs.close()


def test_a_cut_is_reported_once_and_not_to_the_next_user_of_the_connection(
    connection: SimpleNamespace,
) -> None:
    watchdog = Watchdog(0.0)  # every statement is late at once
    try:
        with pytest.raises(StatementTimeout), watchdog.watching(connection):
            watchdog._cut_late()  # the worker's look, without waiting for its tick
            raise ConnectionError("the socket was shut under the statement")
        watchdog.seconds = 60.0  # the connection is used again (a pool hands it out again)
        with pytest.raises(Refused), watchdog.watching(connection):
            raise Refused
    finally:
        watchdog.stop()


def test_an_error_in_time_is_not_a_timeout(connection: SimpleNamespace) -> None:
    watchdog = Watchdog(60.0)
    try:
        with pytest.raises(Refused), watchdog.watching(connection):
            watchdog._cut_late()
            raise Refused
    finally:
        watchdog.stop()
