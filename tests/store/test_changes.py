"""The broadcast that the log may have grown: a reader of a few topics alone (the queues, the
witnessed log's sequencer) is not woken by a write known to hold none of them, and is by every
other change; a process's listener skips the NOTIFYs of its own writes (they woke its readers
already)."""

from __future__ import annotations

import uuid

import psycopg
from psycopg import sql

from service.store.postgres.listener import PostgresListener
from service.store.readers.changes import Changes
from tests.support.threads import wait_until


def test_a_reader_of_some_topics_sleeps_through_writes_of_others_only() -> None:
    changes = Changes()
    woken: list[str] = []
    changes.subscribe(lambda: woken.append("games"))
    changes.subscribe(lambda: woken.append("queues"), topics={"Queued", "Left"})
    changes.notify({"CardPlayed", "TrickTaken"})  # a game command of this process
    assert woken == ["games"]
    woken.clear()
    changes.notify({"Queued"})  # a queue event of this process
    assert woken == ["games", "queues"]
    woken.clear()
    changes.notify()  # another process's NOTIFY: it may hold anything
    assert woken == ["games", "queues"]


def test_an_unsubscribed_reader_is_not_woken() -> None:
    changes = Changes()
    woken: list[str] = []
    unsubscribe = changes.subscribe(lambda: woken.append("queues"), topics={"Queued"})
    unsubscribe()
    changes.notify()
    assert woken == []


def test_a_listener_skips_its_own_processs_notifications(postgres_database: str) -> None:
    changes = Changes()
    woken: list[str] = []
    changes.subscribe(lambda: woken.append("woken"))
    channel = f"changes_{uuid.uuid4().hex[:12]}"
    listener = PostgresListener(postgres_database, channel, changes, own="ours")
    listener.start()
    try:
        wait_until(lambda: woken, "the listener's first look after it starts listening")
        woken.clear()
        with psycopg.connect(postgres_database, autocommit=True) as connection:
            notify = sql.SQL("NOTIFY {}, {}")
            connection.execute(notify.format(sql.Identifier(channel), sql.Literal("ours")))
            connection.execute(notify.format(sql.Identifier(channel), sql.Literal("theirs")))
        # Delivered in the order sent: once theirs has woken it, ours was passed by already.
        wait_until(lambda: woken, "the other process's notification")
        assert woken == ["woken"]
    finally:
        listener.stop()
