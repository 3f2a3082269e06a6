"""Keeps the witnessed log sequenced and signed in the background, one process at a time.

Every API process runs one; only the holder of the "sequencer" leader lock works, the others
stand by and take over when it goes away (its lock dies with its process or session). That the
log gets no gap or duplicate does not rest on the lock but on the compare-and-set in each
batch's transaction (``service/application/log/sequencer.py``).
"""

from __future__ import annotations

from service.application.log.sequencer import TOPICS, LogSequencer
from service.background.projector import LeaderRunner
from service.store.locks import LeaderLock
from service.store.readers.changes import Changes


def sequencer_runner(sequencer: LogSequencer, changes: Changes, leader: LeaderLock) -> LeaderRunner:
    """The runner; between checkpoints it sleeps until the next falls due. Woken only by writes
    that may create or end a game (the others give it no entry to append), and polling."""
    return LeaderRunner("sequencer", sequencer.catch_up, changes, leader, topics=TOPICS)
