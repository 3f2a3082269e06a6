"""Sends each new checkpoint to every witness (C2SP tlog-witness ``add-checkpoint``) and keeps the
cosignatures they answer with, off the request path: a background runner calls ``catch_up``
(``service/background/witnessing.py``), one process at a time.

For each witness the log remembers the largest checkpoint it cosigned (its cosignatures in the
store); it sends the latest checkpoint with a consistency proof from there. A witness that holds
another size answers 409 with it, and the request is made again from that size; one that is
away is asked again after a pause.
"""

from __future__ import annotations

import logging
from typing import NamedTuple

import httpx

from projections.transparency.merkle import consistency_proof
from projections.transparency.notes import NoteError, Policy, SignedNote, Verifier
from projections.transparency.witness import AddCheckpoint
from service.store.log_tables import LogTables, StoredCheckpoint

RETRY_SECONDS = 1.0  # a witness that is away or refused is asked again after this
TIMEOUT_SECONDS = 5.0
log = logging.getLogger("cardledger.log")


class WitnessAddress(NamedTuple):
    key: Verifier  # the witness's cosignature key (type 0x04)
    url: str  # its base URL: add-checkpoint is POSTed to <url>/add-checkpoint


def parse_witnesses(text: str) -> list[WitnessAddress]:
    """``CARDLEDGER_WITNESSES``: comma-separated ``<verifier key> <base URL>``."""
    found = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, _, url = item.partition(" ")
        verifier = Verifier.parse(key)
        if not url.strip().startswith(("http://", "https://")):
            raise ValueError(f"a witness is '<verifier key> <http(s) URL>', not {item!r}")
        found.append(WitnessAddress(verifier, url.strip().rstrip("/")))
    return found


class WitnessRefused(Exception):
    """A witness's answer that is neither a cosignature nor a size to start again from."""


class Witnessing:
    def __init__(
        self, tables: LogTables, log_key: Verifier, witnesses: list[WitnessAddress]
    ) -> None:
        self._tables = tables
        self._log_key = log_key
        self.witnesses = witnesses

    def catch_up(self) -> float | None:
        """Offer the latest checkpoint to every witness that has not cosigned it; the seconds
        until one that failed is asked again (None: every one is up to date)."""
        latest = self._tables.latest_checkpoint()
        if latest is None:
            return None
        again = None
        for witness in self.witnesses:
            try:
                self._offer(witness, latest)
            except (httpx.HTTPError, WitnessRefused, NoteError) as error:
                log.warning("witness %s: %s", witness.key.name, error)
                again = RETRY_SECONDS
        return again

    def _offer(self, witness: WitnessAddress, latest: StoredCheckpoint) -> None:
        held = self._tables.cosigned_size(witness.key.name)
        if held is not None and held >= latest.size:
            return
        old = held or 0
        for _ in range(2):  # a 409 names the size the witness holds: once more from there
            if old > latest.size:
                raise WitnessRefused(f"holds a tree of {old}, past the log's {latest.size}")
            proof = consistency_proof(self._node, old, latest.size)
            body = AddCheckpoint(old, tuple(proof), latest.note).text()
            response = httpx.post(
                f"{witness.url}/add-checkpoint", content=body.encode(), timeout=TIMEOUT_SECONDS
            )
            if response.status_code == 409 and response.text.strip().isdigit():
                old = int(response.text.strip())
                continue
            if response.status_code != 200:
                raise WitnessRefused(f"{response.status_code}: {response.text.strip()}")
            self._keep(witness, latest, response.text)
            return
        raise WitnessRefused("its size moved under us twice")

    def _keep(self, witness: WitnessAddress, latest: StoredCheckpoint, lines: str) -> None:
        """Keep the witness's line that cosigns ``latest`` (checked before it is served)."""
        note = SignedNote.parse(latest.note)
        for line in lines.splitlines(keepends=True):
            cosigned = note.with_lines([line])
            try:
                Policy(self._log_key, (witness.key,), 1).accept(cosigned)
            except NoteError:
                continue
            self._tables.keep_cosignature(latest.size, witness.key.name, line)
            return
        raise WitnessRefused("its answer holds no valid cosignature of the checkpoint")

    def _node(self, level: int, index: int) -> bytes:
        return self._tables.nodes(level, index, 1)[0]
