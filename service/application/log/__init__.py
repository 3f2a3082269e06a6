"""The witnessed log, composed: its tables, its key, the sequencer, the witnesses' cosigning and
what is served of it (docs/transparency.md)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from service.application.log.key import log_signer
from service.application.log.reads import LogReads
from service.application.log.sequencer import LogSequencer
from service.application.log.witnessing import Witnessing, parse_witnesses
from service.settings import Settings
from service.store.event_store import Store
from service.store.log_tables import LogTables


class WitnessedLog:
    def __init__(self, store: Store, settings: Settings, clock: Callable[[], datetime]) -> None:
        self.tables = LogTables(store)
        self.signer = log_signer(settings)
        self.sequencer = LogSequencer(store, self.tables, self.signer, clock)
        witnesses = parse_witnesses(settings.witnesses)
        self.witnessing = Witnessing(self.tables, self.signer.verifier(), witnesses)
        self.reads = LogReads(self.tables, self.signer, len(witnesses))
