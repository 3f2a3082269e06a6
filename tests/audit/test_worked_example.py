"""docs/audit.md's worked example: parsed out of the page, it is what the project produces, and
every hash, salt and draw in it is re-derived from docs/fairness.md's words alone
(``tests.audit.independent``), never by the project's hashing or stream code."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from typing import Any

import pytest

from domain.chain import canonical as project_canonical
from projections.audit import audit
from service.application.bundle import read_bundle
from tests.audit import independent
from tests.audit.worked_example import BLOCK, DOC, blocks, play
from tests.unit.fairness.test_variant_draws import canonical as canonical_deck

TEMPO = ["pressure", "reveal", "reverse", "double"]


def shown() -> dict[str, str]:
    """The page's example blocks, by name."""
    return {match[1]: match[0].split("\n", 2)[2].removesuffix("```\n") for match in _blocks()}


def _blocks() -> list[re.Match[str]]:
    return list(BLOCK.finditer(DOC.read_text()))


def values(name: str) -> dict[str, str]:
    """A ``key  value`` block: the key ends at the first run of two or more spaces."""
    pairs = (re.split(r" {2,}", line, maxsplit=1) for line in shown()[name].splitlines())
    return {pair[0]: pair[1] for pair in pairs}


def bundle() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(shown()["bundle"])
    return loaded


def events() -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = bundle()["events"]
    return listed


def payloads(kind: str) -> list[dict[str, Any]]:
    return [event["payload"] for event in events() if event["payload"]["type"] == kind]


def test_the_page_shows_what_the_project_produces() -> None:
    assert set(shown()) == {"bundle", "draws", "salts", "hash"}
    assert shown() == blocks(play()), "the example changed: run `make golden`, review the page"


def test_the_project_audits_the_example_valid() -> None:
    game_id, recorded = read_bundle(shown()["bundle"].encode())
    report = audit(game_id, recorded)
    assert report.verdict == "valid", [c for c in report.checks if c.status != "pass"]


def test_every_hash_re_derived() -> None:
    game = bundle()
    independent.check_chain(game["game_id"], game["events"])
    assert game["game_id"] == payloads("GameCreated")[0]["game_id"]


def test_the_hash_shown_step_by_step() -> None:
    shown_hash = values("hash")
    body = json.loads(shown_hash["body"])
    event = next(e for e in events() if e["hash"] == shown_hash["hash"])
    assert "expiry" in event and body == independent.hash_body(bundle()["game_id"], event)
    assert independent.canonical(body) == shown_hash["body"]
    digest = hashlib.sha256(
        b"cardledger/event/v1\x00"
        + shown_hash["prev_hash"].encode()
        + b"\x00"
        + shown_hash["body"].encode()
    ).hexdigest()
    assert digest == shown_hash["hash"] == event["hash"]


def test_the_seed_and_the_first_block_re_derived() -> None:
    draws = values("draws")
    seed = bytes.fromhex(draws["seed"])
    assert hashlib.sha256(seed).hexdigest() == draws["seed_commitment"]
    assert payloads("GameCreated")[0]["seed_commitment"] == draws["seed_commitment"]
    assert payloads("GameFinished")[0]["seed"] == draws["seed"]

    def field(text: str) -> bytes:
        return len(text.encode()).to_bytes(4, "big") + text.encode()

    message = (
        field("cardledger/random/v1")
        + field("deal/1")
        + field(bundle()["game_id"])
        + (2).to_bytes(4, "big")
        + field("alice")
        + field("bob")
        + (0).to_bytes(8, "big")
    )
    assert hmac.new(seed, message, hashlib.sha256).hexdigest() == draws["block(deal/1, 0)"]


def test_every_draw_re_derived() -> None:
    draws = values("draws")
    stream = independent.stream_of(bundle()["game_id"], events())
    use = stream.use("deal/1")
    swaps = [f"i={i} j={use.uniform(i + 1)}" for i in range(53, 49, -1)]
    assert ", ".join(swaps) == draws["deal/1 first swaps"]

    deck = stream.use("deal/1").shuffle(canonical_deck(jokers=True))
    dealt = payloads("HandDealt")[0]
    assert [hand["value"] for hand in dealt["hands"]] == [deck[0:5], deck[5:10]]
    assert dealt["rest"]["value"] == deck[10:]

    tempo = stream.use("tempo").shuffle([kind for kind in TEMPO for _ in range(2)])
    assert payloads("TempoDeckShuffled")[0]["cards"]["value"] == tempo
    assert [flip["tempo"] for flip in payloads("TempoCardFlipped")] == tempo[:3]

    timed_out = payloads("ChoiceTimedOut")[0]
    playable = dealt["hands"][1]["value"]  # Bob's hand as dealt: nothing played or revealed
    pick = stream.use("timeout/round/1/seat/1").uniform(len(playable))
    assert timed_out["seats"] == [1] and timed_out["cards"][0]["value"] == playable[pick]
    assert draws["timeout/round/1/seat/1"] == f"uniform({len(playable)}) = {pick}: {playable[pick]}"


def test_every_salt_re_derived() -> None:
    game = bundle()
    assert independent.check_salts(game["game_id"], game["events"]) == len(
        shown()["salts"].splitlines()[1:]
    )
    # The page's table names the same labels as the spec's rules.
    listed = [line.split()[2:] for line in shown()["salts"].splitlines()[1:]]
    assert [[label, salt] for label, salt in independent.expected_salts(game["events"])] == listed


def test_the_late_batch_is_cut_by_its_expiry_marks() -> None:
    late = next(b for b in independent.batches(events()) if any("expiry" in e for e in b))
    expiry, command = independent.decisions(late)
    assert [e["payload"]["type"] for e in expiry] == [
        "ChoiceTimedOut",
        "ChoicesRevealed",
        "RoundScored",
        "TempoCardFlipped",
    ]
    assert {e["expiry"] for e in expiry} == {payloads("TempoCardFlipped")[0]["deadline"]}
    assert [e["command"] is not None for e in command] == [True]


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ('"\\/\x7f', '"\\"\\\\/\x7f"'),
        ("\b\t\n\f\r", '"\\b\\t\\n\\f\\r"'),
        ("\x00\x1b\x1f", '"\\u0000\\u001b\\u001f"'),
        ("é中😀\u2028", '"é中😀\u2028"'),
    ],
)
def test_canonical_escapes_as_the_spec_says(text: str, written: str) -> None:
    assert independent.canonical(text) == written
    assert project_canonical(text) == written.encode()  # the project's agrees, byte for byte


def test_canonical_sorts_keys_by_code_point() -> None:
    value = {"😀": 1, "\uffff": 2, "z": 3, "Z": 4, "a": {"b": -1, "a": None}}
    written = '{"Z":4,"a":{"a":null,"b":-1},"z":3,"\uffff":2,"😀":1}'
    assert independent.canonical(value) == written
    assert project_canonical(value) == written.encode()
