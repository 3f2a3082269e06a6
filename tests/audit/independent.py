"""docs/fairness.md written again from its words, for logs as served (plain JSON).

Nothing here imports the project's hashing, stream or rules code: the canonical form, the hash
body, the batches and decisions and the order of sealed secrets are read from the spec (the order
table is parsed out of docs/fairness.md itself), so a test comparing this with the project's
output checks the spec as much as the code.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from tests.unit.fairness.test_fairness import reference_words
from tests.unit.fairness.test_variant_draws import Use

SPEC = Path(__file__).parents[2] / "docs" / "fairness.md"
GENESIS = "0" * 64
SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f"}
SHORT_ESCAPES["\r"] = "\\r"

Event = dict[str, Any]


def canonical(value: Any) -> str:
    """§3: compact, keys sorted by code point, only the listed escapes, integers in decimal."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + "".join(_escaped(char) for char in value) + '"'
    if isinstance(value, list):
        return "[" + ",".join(canonical(item) for item in value) + "]"
    if isinstance(value, dict):
        members = sorted(value.items(), key=lambda item: [ord(c) for c in item[0]])
        return "{" + ",".join(f"{canonical(k)}:{canonical(v)}" for k, v in members) + "}"
    raise TypeError(f"no canonical form for {value!r}")


def _escaped(char: str) -> str:
    if char in SHORT_ESCAPES:
        return SHORT_ESCAPES[char]
    if ord(char) < 0x20:
        return f"\\u{ord(char):04x}"
    return char


def hash_body(game_id: str, event: Event) -> dict[str, Any]:
    """§3: the hashed members; ``expiry`` only when the event has it; never ``type``."""
    names = ["actor", "command", "command_id", "payload", "timestamp", "version"]
    body = {name: event[name] for name in names} | {"game_id": game_id}
    if "expiry" in event:
        body["expiry"] = event["expiry"]
    return body


def event_hash(game_id: str, event: Event, prev_hash: str) -> str:
    data = canonical(hash_body(game_id, event)).encode("utf-8")
    return hashlib.sha256(
        b"cardledger/event/v1\x00" + prev_hash.encode() + b"\x00" + data
    ).hexdigest()


def check_chain(game_id: str, events: list[Event]) -> None:
    previous = GENESIS
    for number, event in enumerate(events, start=1):
        assert event["version"] == number and event["prev_hash"] == previous, number
        assert event["type"] == event["payload"]["type"], number
        assert event_hash(game_id, event, previous) == event["hash"], number
        previous = event["hash"]


def batches(events: list[Event]) -> list[list[Event]]:
    """§5: cut wherever command_id or actor changes."""
    cut: list[list[Event]] = []
    for event in events:
        if cut and (cut[-1][0]["command_id"], cut[-1][0]["actor"]) == (
            event["command_id"],
            event["actor"],
        ):
            cut[-1].append(event)
        else:
            cut.append([event])
    return cut


def decisions(batch: list[Event]) -> list[list[Event]]:
    """§5: maximal runs with the same ``expiry`` (absent is a value of its own)."""
    runs: list[list[Event]] = []
    for event in batch:
        if runs and runs[-1][0].get("expiry") == event.get("expiry"):
            runs[-1].append(event)
        else:
            runs.append([event])
    return runs


@cache
def secret_order() -> dict[str, list[str]]:
    """§4's table, read from the spec: each event's secret fields, in order."""
    text = SPEC.read_text()
    section = text[text.index("## 4.") : text.index("## 5.")]
    order = {}
    for row in re.findall(r"^\| `(\w+)` \([^)]*\) \| (.*) \|$", section, re.MULTILINE):
        cell = re.sub(r"\([^)]*\)", "", row[1])
        fields = [name for name in re.findall(r"`(\w+)(?:\[[^\]]*\])?`", cell) if name != "null"]
        order[row[0]] = list(dict.fromkeys(fields))
    return order


def is_secret(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"owner", "value", "salt"}


def all_secrets(value: Any) -> Iterator[dict[str, Any]]:
    """Every secret anywhere in a payload, whatever the table says."""
    if is_secret(value):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from all_secrets(item)
    elif isinstance(value, list):
        for item in value:
            yield from all_secrets(item)


def sealed_in_order(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """§4: the payload's secrets in the documented order (the table must name them all but the
    seed, the one secret without a salt)."""
    if payload["type"] == "GameCreated":
        assert payload["seed"]["salt"] is None and list(all_secrets(payload)) == [payload["seed"]]
        return []
    found = []
    for name in secret_order().get(payload["type"], []):
        value = payload[name]
        for item in value if isinstance(value, list) else [value]:
            if item is not None:
                assert is_secret(item), (payload["type"], name)
                found.append(item)
    assert len(found) == len(list(all_secrets(payload))), f"§4 misses a secret of {payload}"
    return found


class Stream:
    """§2: the labelled uses of one game's stream."""

    def __init__(self, seed: bytes, game_id: str, client_seeds: list[str]) -> None:
        self.seed, self.game_id, self.client_seeds = seed, game_id, client_seeds

    def use(self, label: str) -> Use:
        return Use(self.game_id, self.client_seeds, label, seed=self.seed)

    def salt(self, label: str) -> str:
        """The first 16 bytes of the use: its first four words."""
        words = reference_words(self.seed, label, self.game_id, self.client_seeds)
        return b"".join(next(words).to_bytes(4, "big") for _ in range(4)).hex()


def stream_of(game_id: str, events: list[Event]) -> Stream:
    """The game's stream, from the revealed seed and the client seeds in seat order."""
    seed = bytes.fromhex(events[-1]["payload"]["seed"])
    assert hashlib.sha256(seed).hexdigest() == events[0]["payload"]["seed_commitment"]
    seats = [e["payload"] for e in events if e["payload"]["type"] == "SeatTaken"]
    ordered = sorted(seats, key=lambda seat: seat["seat"])
    return Stream(seed, game_id, [seat["client_seed"] for seat in ordered])


def expected_salts(events: list[Event]) -> Iterator[tuple[str, str]]:
    """(label, salt) for every salted secret of the log, by the rules of §4, §5 and §6."""
    for batch in batches(events):
        carrier = next((e for e in batch if "expiry" not in e), batch[0])
        for decision in decisions(batch):
            version = decision[0]["version"] - 1
            sealed = [s for event in decision for s in sealed_in_order(event["payload"])]
            for k, secret in enumerate(sealed):
                yield f"seal/{version}/{k}", secret["salt"]
        for event in batch:
            if event["command"] is not None:
                assert event is carrier, f"event {event['version']}: the command is misplaced"
                yield f"command/{event['version'] - 1}", event["command"]["salt"]


def check_salts(game_id: str, events: list[Event]) -> int:
    """Every salt of a finished game's log is its documented label's; returns how many."""
    stream = stream_of(game_id, events)
    salts = list(expected_salts(events))
    for label, salt in salts:
        assert stream.salt(label) == salt, label
    return len(salts)
