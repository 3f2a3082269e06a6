"""Checkpoints and signed notes: they parse back to what was written, the log's signature and
the witnesses' cosignatures verify under the published keys, and a note altered in any way, or
signed by another key, or short of the policy's quorum, is refused."""

from __future__ import annotations

import base64
import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from projections.transparency.notes import (
    COSIGNATURE,
    Checkpoint,
    NoteError,
    Policy,
    Signature,
    SignedNote,
    Signer,
    Verifier,
)

ROOT = hashlib.sha256(b"root").digest()
CHECKPOINT = Checkpoint("cardledger.test/log", 12, ROOT)


def signer(name: str, kind: int = 0x01, seed: int = 1) -> Signer:
    return Signer(name, Ed25519PrivateKey.from_private_bytes(bytes([seed]) * 32), kind)


LOG = signer("cardledger.test/log")
WITNESSES = [signer(f"witness.test/w{n}", COSIGNATURE, seed=10 + n) for n in range(3)]


def signed(checkpoint: Checkpoint = CHECKPOINT, cosigners: int = 2) -> SignedNote:
    text = checkpoint.text() + "\n" + LOG.sign(checkpoint)
    lines = [w.cosign(checkpoint, 1_764_000_000 + n) for n, w in enumerate(WITNESSES[:cosigners])]
    return SignedNote.parse(text).with_lines(lines)


def policy(quorum: int = 2) -> Policy:
    return Policy(LOG.verifier(), tuple(w.verifier() for w in WITNESSES), quorum)


def test_a_checkpoint_is_three_lines_and_parses_back() -> None:
    text = CHECKPOINT.text()
    assert text == f"cardledger.test/log\n12\n{base64.b64encode(ROOT).decode()}\n"
    assert Checkpoint.parse(text) == CHECKPOINT
    extended = Checkpoint("o", 0, ROOT, ("ext one",))
    assert Checkpoint.parse(extended.text()) == extended


@pytest.mark.parametrize(
    "text",
    [
        "o\n12\n",
        "o\n012\nAA==\n",
        "o\n-1\n" + base64.b64encode(ROOT).decode() + "\n",
        "o\n1\nAA==\n",
    ],
)
def test_a_malformed_checkpoint_is_refused(text: str) -> None:
    with pytest.raises(NoteError):
        Checkpoint.parse(text)


def test_a_signed_note_round_trips_and_the_policy_accepts_it() -> None:
    note = signed()
    assert SignedNote.parse(note.text()) == note
    assert policy().accept(note) == {
        "witness.test/w0": 1_764_000_000,
        "witness.test/w1": 1_764_000_001,
    }


def test_published_keys_parse_back_and_a_wrong_key_id_is_refused() -> None:
    for key in (LOG.verifier(), WITNESSES[0].verifier()):
        assert Verifier.parse(key.text()) == key
    name, key_id, blob = LOG.verifier().text().split("+", 2)
    with pytest.raises(NoteError):
        Verifier.parse(f"{name}+{'00' * 4}+{blob}")
    with pytest.raises(NoteError):
        Verifier.parse(f"another/name+{key_id}+{blob}")


def test_an_altered_checkpoint_is_refused() -> None:
    note = signed()
    for forged in (
        Checkpoint(CHECKPOINT.origin, 13, ROOT),
        Checkpoint(CHECKPOINT.origin, 12, hashlib.sha256(b"other").digest()),
        Checkpoint("cardledger.test/other", 12, ROOT),
    ):
        with pytest.raises(NoteError, match="does not verify"):
            policy().accept(SignedNote(forged, note.signatures))


def test_a_note_the_log_did_not_sign_is_refused() -> None:
    stranger = signer("cardledger.test/log", seed=99)  # the log's name, another key
    text = CHECKPOINT.text() + "\n" + stranger.sign(CHECKPOINT)
    note = SignedNote.parse(text).with_lines([w.cosign(CHECKPOINT, 1) for w in WITNESSES])
    with pytest.raises(NoteError, match="no signature of the log"):
        policy().accept(note)


def test_too_few_cosignatures_fall_short_of_the_quorum() -> None:
    with pytest.raises(NoteError, match="1 of the 2"):
        policy().accept(signed(cosigners=1))
    assert len(policy(quorum=3).accept(signed(cosigners=3))) == 3


def test_a_cosignature_moved_to_another_time_or_checkpoint_fails() -> None:
    note = signed(cosigners=1)
    cosigned = note.signatures[-1]
    retimed = cosigned.blob[:4] + (5).to_bytes(8, "big") + cosigned.blob[12:]
    tampered = SignedNote(CHECKPOINT, (*note.signatures[:-1], Signature(cosigned.name, retimed)))
    with pytest.raises(NoteError, match="does not verify"):
        policy(quorum=1).accept(tampered)
    other = Checkpoint(CHECKPOINT.origin, 13, ROOT)
    moved = SignedNote.parse(other.text() + "\n" + LOG.sign(other)).with_lines(
        [WITNESSES[0].cosign(CHECKPOINT, 1)]
    )
    with pytest.raises(NoteError, match="does not verify"):
        policy(quorum=1).accept(moved)


def test_a_witness_key_cannot_sign_as_the_log_nor_the_log_cosign() -> None:
    with pytest.raises(NoteError):
        WITNESSES[0].sign(CHECKPOINT)
    with pytest.raises(NoteError):
        LOG.cosign(CHECKPOINT, 1)
