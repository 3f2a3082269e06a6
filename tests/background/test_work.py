"""The background work, close to the code: the projector lets go of its leadership when it
stops (so a standby takes over), and each reader of the log reports its own position."""

from __future__ import annotations

import time

from service.application import Cardledger
from service.background.projector import ReadModelRunner
from service.background.work import BackgroundWork
from service.settings import Settings
from service.store.locks import LeaderLock
from tests.support.in_process import new_game, players


def test_a_stopped_projector_hands_its_leadership_on(ledger: Cardledger) -> None:
    runner = ReadModelRunner(
        ledger.read_models, ledger.store.changes, LeaderLock(ledger.settings, "projector")
    )
    standby = LeaderLock(ledger.settings, "projector")
    try:
        runner.start()
        give_up = time.monotonic() + 30  # a bound on the thread's first step, not a timing
        while not runner.leader.held():
            assert time.monotonic() < give_up, "the projector never took the lead"
            time.sleep(0.01)
        assert not standby.try_acquire()
        runner.stop()
        assert standby.try_acquire()
    finally:
        runner.stop()
        standby.release()


def test_each_reader_of_the_log_reports_its_own_position(settings: Settings) -> None:
    quiet = Settings(
        database_url=settings.database_url, data_dir=settings.data_dir, projector="external"
    )
    ledger = Cardledger(quiet)
    try:
        new_game(ledger, players(ledger, 1)[0])
        work = BackgroundWork(ledger)
        readers = work.log_readers()
        assert readers["log_follower"]() is None  # not started
        work.follower.step()
        assert readers["log_follower"]() == ledger.store.recorder.max_notification_id()
        assert readers["read_models"]() == 0  # nobody projected
    finally:
        ledger.close()
