"""Leadership, close to the code: one holder of a lock at a time on either store, and the
next one may take it once the holder lets go."""

from __future__ import annotations

from service.settings import Settings
from service.store.locks import LeaderLock


def test_one_leader_at_a_time(settings: Settings) -> None:
    first, second = LeaderLock(settings, "projector"), LeaderLock(settings, "projector")
    other_work = LeaderLock(settings, "another-task")
    try:
        assert first.try_acquire()
        assert not second.try_acquire()
        assert first.try_acquire()  # the holder keeps it
        assert other_work.try_acquire()  # a lock per piece of work
        first.release()
        assert second.try_acquire()
        assert not first.try_acquire()
    finally:
        for lock in (first, second, other_work):
            lock.release()
