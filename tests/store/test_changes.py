"""The broadcast that the log may have grown: a reader of the queues alone is not woken by a
write known to hold no queue event, and is by every other change."""

from __future__ import annotations

from service.store.changes import Changes


def test_a_queue_reader_sleeps_through_game_writes_only() -> None:
    changes = Changes()
    woken: list[str] = []
    changes.subscribe(lambda: woken.append("games"))
    changes.subscribe(lambda: woken.append("queues"), queues=True)
    changes.notify(queued=False)  # a game command of this process
    assert woken == ["games"]
    woken.clear()
    changes.notify(queued=True)  # a queue event of this process
    assert woken == ["games", "queues"]
    woken.clear()
    changes.notify()  # another process's NOTIFY: it may hold anything
    assert woken == ["games", "queues"]


def test_an_unsubscribed_reader_is_not_woken() -> None:
    changes = Changes()
    woken: list[str] = []
    unsubscribe = changes.subscribe(lambda: woken.append("queues"), queues=True)
    unsubscribe()
    changes.notify()
    assert woken == []
