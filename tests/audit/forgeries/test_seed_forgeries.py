"""The `seed_commitment` check: the revealed seed must hash to the commitment published at the
creation, and be the seed the game was played with. Every forgery here re-hashes the chain."""

from __future__ import annotations

import hashlib
from pathlib import Path

from tests.audit.forgeries.finished_game import finished_bundle, refused
from tests.audit.test_verify import rehash

OTHER_SEED = hashlib.sha256(b"a seed the server never committed to").hexdigest()


def test_a_seed_swapped_everywhere_does_not_hash_to_the_commitment(tmp_path: Path) -> None:
    # Both the sealed seed and the revealed one agree, so only hashing the revealed seed
    # against the commitment can fail first; the re-run deals fail after it.
    forged = finished_bundle()
    forged["events"][0]["payload"]["seed"]["value"] = OTHER_SEED
    forged["events"][-1]["payload"]["seed"] = OTHER_SEED
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "seed_commitment", output
    assert (
        "seed_commitment: SHA-256 of the revealed seed differs from the commitment (event 28)"
        in output
    )


def test_a_seed_revealed_other_than_the_one_played_with(tmp_path: Path) -> None:
    # The revealed seed still matches the commitment: the game was dealt from another one.
    forged = finished_bundle()
    forged["events"][0]["payload"]["seed"]["value"] = OTHER_SEED
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "seed_commitment", output
    assert "seed_commitment: the seed used is not the seed revealed (event 1)" in output


def test_a_revealed_seed_that_is_not_hex(tmp_path: Path) -> None:
    forged = finished_bundle()
    forged["events"][-1]["payload"]["seed"] = "zz" * 32
    failed, output = refused(tmp_path, rehash(forged))
    assert failed[0] == "seed_commitment", output
    assert "seed_commitment: the revealed seed is not hex (event 28)" in output


def test_a_new_seed_with_its_own_commitment_is_given_away_by_the_deal(tmp_path: Path) -> None:
    # A forger who replaces the commitment too passes this check (it is consistent), so the
    # re-derived deal must be what catches it.
    forged = finished_bundle()
    created = forged["events"][0]["payload"]
    created["seed_commitment"] = hashlib.sha256(bytes.fromhex(OTHER_SEED)).hexdigest()
    created["seed"]["value"] = OTHER_SEED
    forged["events"][-1]["payload"]["seed"] = OTHER_SEED
    failed, output = refused(tmp_path, rehash(forged))
    assert failed == ["decisions", "deals"], output
    assert "PASS     seed_commitment" in output
    assert "decisions: event 6 is not what the rules produce: recorded HandDealt" in output
