"""Offers each new checkpoint to the witnesses in the background, one process at a time (the
holder of the "witnessing" leader lock), and asks again while one is away."""

from __future__ import annotations

from service.application.log.witnessing import Witnessing
from service.background.projector import LeaderRunner
from service.store.locks import LeaderLock
from service.store.readers.changes import Changes

GAP = 0.2


def witnessing_runner(witnessing: Witnessing, changes: Changes, leader: LeaderLock) -> LeaderRunner:
    """Woken by every write, but a round at most every GAP seconds: checkpoints come about once
    a second, and each round reads the latest one."""
    return LeaderRunner("witnessing", witnessing.catch_up, changes, leader, gap=GAP)
