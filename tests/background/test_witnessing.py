"""The service's side of witnessing, on both stores, against a witness served on a thread: a
witness that is away is asked again later; each new checkpoint is cosigned from the last one the
witness cosigned; a witness ahead of what the store knows answers 409 with its size and is asked
again from there; and a witness started again on its state file still holds what it cosigned."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from projections.transparency.merkle import consistency_proof
from projections.transparency.notes import COSIGNATURE, Policy, SignedNote, Signer
from projections.transparency.witness import AddCheckpoint
from service.application import Cardledger
from service.application.log.sequencer import LogSequencer
from service.application.log.witnessing import RETRY_SECONDS, WitnessAddress, Witnessing
from service.tools.witness import Allowance, Witness, WitnessState, handler
from tests.support.in_process import new_game, players
from tests.support.servers import free_port

KEY = Signer("witness.test", Ed25519PrivateKey.generate(), COSIGNATURE)


@contextlib.contextmanager
def serving(ledger: Cardledger, state: Path) -> Iterator[str]:
    """A witness of the ledger's log on a free port, its state in ``state``; its URL."""
    witness = Witness(
        KEY, {ledger.log.signer.name: ledger.log.signer.verifier()}, WitnessState(state)
    )
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler(witness, Allowance(0)))
    thread = threading.Thread(target=server.serve_forever, name="witness", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def sequenced(ledger: Cardledger, games: int) -> int:
    """``games`` more games, sequenced and signed at once; the signed size."""
    creator = players(ledger, 1)[0]
    for _ in range(games):
        new_game(ledger, creator)
    log = ledger.log
    LogSequencer(ledger.store, log.tables, log.signer, ledger.clock, interval=0).catch_up()
    latest = log.tables.latest_checkpoint()
    assert latest is not None
    return latest.size


def accepted(ledger: Cardledger) -> int:
    """The size of the served checkpoint, which a quorum-1 policy of the witness accepts."""
    note = SignedNote.parse(ledger.log.reads.checkpoint().note)
    Policy(ledger.log.signer.verifier(), (KEY.verifier(),), 1).accept(note)
    return note.checkpoint.size


def test_the_service_keeps_a_witness_cosigning_its_checkpoints(
    ledger: Cardledger, tmp_path: Path
) -> None:
    tables, log_key = ledger.log.tables, ledger.log.signer.verifier()
    size = sequenced(ledger, 3)
    away = Witnessing(
        tables, log_key, [WitnessAddress(KEY.verifier(), f"http://127.0.0.1:{free_port()}")]
    )
    assert away.catch_up() == RETRY_SECONDS, "asked again later"
    assert tables.cosignatures(size) == []
    with serving(ledger, tmp_path / "state.json") as url:
        witnessing = Witnessing(tables, log_key, [WitnessAddress(KEY.verifier(), url)])
        assert witnessing.catch_up() is None
        assert accepted(ledger) == size
        assert witnessing.catch_up() is None, "nothing new: nothing sent"
        larger = sequenced(ledger, 2)
        assert witnessing.catch_up() is None
        assert accepted(ledger) == larger > size

        # The witness is ahead of what the store knows (its cosignatures lost): 409, then again.
        grown = sequenced(ledger, 1)
        proof = consistency_proof(lambda level, i: tables.nodes(level, i, 1)[0], larger, grown)
        latest = tables.latest_checkpoint()
        assert latest is not None
        direct = AddCheckpoint(larger, tuple(proof), latest.note).text().encode()
        assert httpx.post(f"{url}/add-checkpoint", content=direct).status_code == 200
        behind = Witnessing(tables, log_key, [WitnessAddress(KEY.verifier(), url)])

        def forget(cursor: object) -> None:
            # the test's hand in the store
            cursor.execute(tables._sql("DELETE FROM {cosignatures}"))  # type: ignore[attr-defined]

        ledger.store.transact(forget)
        assert behind.catch_up() is None
        assert accepted(ledger) == grown
    with serving(ledger, tmp_path / "state.json") as url:  # started again on its state
        fresh = AddCheckpoint(0, (), latest.note).text().encode()
        answer = httpx.post(f"{url}/add-checkpoint", content=fresh)
        assert (answer.status_code, answer.text) == (409, f"{grown}\n")
        assert answer.headers["content-type"] == "text/x.tlog.size"
