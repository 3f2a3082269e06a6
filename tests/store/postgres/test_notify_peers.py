"""A process announces its writes by NOTIFY only while another process is known to listen: its
own listener says hello on the channel and hears the others' hellos. Alone (its listener hearing
no other) it sends nothing; with no listener of its own hearing, it announces every write."""

from __future__ import annotations

import contextlib
import threading
import uuid
from collections.abc import Callable, Iterator

import psycopg
import pytest
from psycopg import sql

from service.store.postgres import listener
from service.store.postgres.listener import (
    HELLO,
    PRESENCE_SECONDS,
    Notifier,
    Peers,
    PostgresListener,
)
from service.store.readers.changes import Changes
from tests.support.threads import finished, wait_until


@contextlib.contextmanager
def overheard(url: str, channel: str) -> Iterator[Callable[[], list[str]]]:
    """Every payload sent on ``channel`` while the block runs (a listener that says nothing,
    as a process of a version before hellos)."""
    heard: list[str] = []
    stopping = threading.Event()
    connection = psycopg.connect(url, autocommit=True)
    connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))

    def listen() -> None:
        while not stopping.is_set():
            for notice in connection.notifies(timeout=0.2, stop_after=1):
                heard.append(notice.payload)

    thread = threading.Thread(target=listen, name="overheard", daemon=True)
    thread.start()
    try:
        yield lambda: list(heard)
    finally:
        stopping.set()
        finished([thread])
        connection.close()


def test_a_process_alone_sends_no_notify_and_one_with_company_does(
    postgres_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(listener, "HELLO_SECONDS", 3600.0)  # only an answer says hello again
    channel = f"peers_{uuid.uuid4().hex[:12]}"
    notifier = Notifier(lambda: psycopg.connect(postgres_database, autocommit=True), channel)
    ours = PostgresListener(
        postgres_database, channel, Changes(), own=notifier.origin, peers=notifier.peers
    )
    theirs = PostgresListener(postgres_database, channel, Changes(), own="theirs")
    with overheard(postgres_database, channel) as heard:
        try:
            notifier.poke()  # no listener of ours hears yet: nobody is known not to listen
            wait_until(lambda: notifier.origin in heard(), "a write announced before we hear")
            wait_until(lambda: notifier.worker.health().steps == 1, "the announcing step's end")
            ours.start()
            wait_until(lambda: f"{HELLO}{notifier.origin}" in heard(), "our listener's hello")
            wait_until(lambda: not notifier.peers.anyone_else(), "our listener hearing")
            sent = heard().count(notifier.origin)
            notifier.poke()
            assert notifier.worker.health().steps == 1, "a NOTIFY nobody else would hear"
            theirs.start()
            wait_until(notifier.peers.anyone_else, "their hello, heard by our listener")
            # Answered at once, not at our next hello: they know of us now.
            wait_until(
                lambda: heard().count(f"{HELLO}{notifier.origin}") >= 2,
                "our answering hello",
                within=30,
            )
            notifier.poke()
            wait_until(lambda: heard().count(notifier.origin) > sent, "a write announced to them")
        finally:
            theirs.stop()
            ours.stop()
            notifier.stop()
        # Every NOTIFY of the notifier's was sent before it stopped, so before this one: the
        # write made while nobody else listened was never announced.
        with psycopg.connect(postgres_database, autocommit=True) as connection:
            connection.execute(sql.SQL("NOTIFY {}, 'end'").format(sql.Identifier(channel)))
        wait_until(lambda: "end" in heard(), "the last notification")
        assert heard().count(notifier.origin) == sent + 1


def test_another_process_is_known_to_listen_for_a_while_after_its_last_hello() -> None:
    now = [100.0]
    peers = Peers(clock=lambda: now[0])
    assert peers.anyone_else(), "no listener of ours hears: every write is announced"
    peers.hearing(True)
    assert not peers.anyone_else(), "hearing, and nobody else said hello"
    peers.heard()
    now[0] += PRESENCE_SECONDS - 0.1
    assert peers.anyone_else()
    now[0] += 0.2
    assert not peers.anyone_else(), "their hellos stopped: they are gone"
    peers.hearing(False)
    assert peers.anyone_else(), "our listener lost its connection: we would not hear them"
