"""The witness's decisions (C2SP tlog-witness add-checkpoint), and the evidence of a split view:
each refusal with its status, a cosignature only for a checkpoint that extends the one held."""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from projections.transparency.evidence import NotProven, split_view
from projections.transparency.merkle import Tree
from projections.transparency.notes import COSIGNATURE, Checkpoint, Policy, SignedNote, Signer
from projections.transparency.witness import AddCheckpoint, Refused, add_checkpoint

LOG = Signer("example.com/log", Ed25519PrivateKey.generate())
OTHER = Signer("example.com/log", Ed25519PrivateKey.generate())
WITNESS = Signer("witness.example", Ed25519PrivateKey.generate(), COSIGNATURE)


def tree(entries: list[bytes]) -> Tree:
    made = Tree()
    for entry in entries:
        made.append(entry)
    return made


def signed(made: Tree, size: int, signer: Signer = LOG) -> str:
    checkpoint = Checkpoint(signer.name, size, made.root(size))
    return checkpoint.text() + "\n" + signer.sign(checkpoint)


def request(made: Tree, old: int, size: int, signer: Signer = LOG) -> AddCheckpoint:
    return AddCheckpoint(old, tuple(made.consistency_proof(old, size)), signed(made, size, signer))


def witness(request: AddCheckpoint, held: str | None) -> str:
    _, line = add_checkpoint(request, held, {LOG.name: LOG.verifier()}, WITNESS, 1700000000)
    return line


HONEST = tree([f"entry {n}".encode() for n in range(9)])
FORKED = tree([b"entry 0", b"rewritten", *[f"entry {n}".encode() for n in range(2, 9)]])


def test_a_checkpoint_extending_the_held_one_is_cosigned_under_the_policy() -> None:
    line = witness(request(HONEST, 3, 7), signed(HONEST, 3))
    note = SignedNote.parse(signed(HONEST, 7)).with_lines([line])
    policy = Policy(LOG.verifier(), (WITNESS.verifier(),), 1)
    assert policy.accept(note) == {WITNESS.name: 1700000000}
    parsed = AddCheckpoint.parse(request(HONEST, 3, 7).text())
    assert parsed == request(HONEST, 3, 7)


@pytest.mark.parametrize(
    ("offered", "held", "status"),
    [
        (request(HONEST, 3, 7), signed(HONEST, 5), 409),  # not the size the witness holds
        (request(HONEST, 5, 7), None, 409),  # a fresh witness holds the empty tree
        (request(FORKED, 3, 7), signed(HONEST, 3), 422),  # does not extend the held tree
        (request(FORKED, 7, 7), signed(HONEST, 7), 422),  # one size, another root
        (request(HONEST, 3, 7, OTHER), signed(HONEST, 3), 403),  # not the log's key
        (AddCheckpoint(8, (), signed(HONEST, 7)), signed(HONEST, 3), 400),  # old past new
    ],
)
def test_a_witness_refuses(offered: AddCheckpoint, held: str | None, status: int) -> None:
    with pytest.raises(Refused) as refused:
        witness(offered, held)
    assert refused.value.status == status
    if status == 409:
        assert refused.value.held == (0 if held is None else 5)


def test_an_unknown_origin_and_a_malformed_request_are_refused() -> None:
    stranger = Signer("elsewhere/log", Ed25519PrivateKey.generate())
    with pytest.raises(Refused) as refused:
        witness(request(HONEST, 0, 3, stranger), None)
    assert refused.value.status == 404
    for body in ("old 3\n", "new 3\n\nx", "old 03\n\nx", "old 3\n!!\n\nx"):
        with pytest.raises(Refused) as refused:
            AddCheckpoint.parse(body)
        assert refused.value.status == 400


def proof_of(made: Tree, index: int, size: int) -> list[str]:
    return [base64.b64encode(h).decode() for h in made.inclusion_proof(index, size)]


def test_a_split_view_is_proven_by_two_signed_trees_and_nothing_less() -> None:
    same_size = {"first": signed(HONEST, 7), "second": signed(FORKED, 7)}
    assert "different roots" in split_view(same_size, LOG.verifier())
    by_entry = {
        "first": signed(HONEST, 3),
        "second": signed(FORKED, 9),
        "index": 1,
        "first_entry": "entry 1",
        "first_proof": proof_of(HONEST, 1, 3),
        "second_entry": "rewritten",
        "second_proof": proof_of(FORKED, 1, 9),
    }
    assert "different entries at 1" in split_view(by_entry, LOG.verifier())
    with pytest.raises(NotProven):
        split_view({"first": signed(HONEST, 7), "second": signed(HONEST, 7)}, LOG.verifier())
    with pytest.raises(NotProven):  # a checkpoint the log's key did not sign
        split_view({"first": signed(HONEST, 7), "second": signed(FORKED, 7, OTHER)}, LOG.verifier())
    with pytest.raises(NotProven):  # an entry that is not where its proof says
        split_view({**by_entry, "second_entry": "entry 1"}, LOG.verifier())
