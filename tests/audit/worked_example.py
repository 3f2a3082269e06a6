"""The worked example of docs/audit.md: one small Heartbeat game, played by the real aggregate.

Two seats, the 8-card tempo deck, a Pressure first round in which seat 1 answers late: its
command's batch holds the expiry's events (marked) and then its own. `make golden` writes the
example's blocks into docs/audit.md (each fenced block after an ``<!-- example:NAME -->`` line);
the tests demand the same bytes and re-derive every value in them from docs/fairness.md alone.
Every value is the project's own output: the salts' labels are found by trying every label the
stream could have used, not by applying the documented rule.
"""

from __future__ import annotations

import hashlib
import random
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec

from domain import game, game_state
from domain.aggregate import GameAggregate, Recorded
from domain.chain import GENESIS, canonical, hashed_body
from domain.events import HandDealt, Secret, tag_of
from domain.fairness import RandomStream, commitment
from domain.perspective import FULL
from projections.events import event_out
from service.application.bundle import FORMAT

DOC = Path(__file__).parents[2] / "docs" / "audit.md"
GAME_ID = UUID("6c0d5f0e-2b1a-4c47-9e1d-3a5e0f7b8c21")
# The 26th seed tried: the first whose tempo deck starts Pressure, Reverse, Double.
SEED = hashlib.sha256(b"cardledger docs/audit.md worked example 25").digest()
PLAYERS = ("alice", "bob")
CLIENT_SEEDS = ("alice", "bob")
OPTIONS = {"tempo_deck": 8}
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
LATE = timedelta(seconds=2)  # how long after the Pressure deadline seat 1's command arrives
BLOCK = re.compile(r"<!-- example:(\w+) -->\n(```[^\n]*)\n.*?```\n", re.DOTALL)


def play() -> GameAggregate:
    """The scripted game: fixed id, seed, clock, command ids and choices."""
    rng = random.Random("docs/audit.md")
    created = game.create(
        game_id=str(GAME_ID),
        variant_id="heartbeat",
        seat_count=2,
        options=OPTIONS,
        creator_id=PLAYERS[0],
        creator_name="Alice",
        client_seed=CLIENT_SEEDS[0],
        seed=SEED,
    )
    aggregate = GameAggregate.open(GAME_ID, created, actor="seat:0", command_id="c1", now=START)
    now = START + timedelta(seconds=10)
    aggregate.join(
        player_id=PLAYERS[1], name="Bob", client_seed=CLIENT_SEEDS[1], command_id="c3", now=now
    )
    answered_late = False
    while aggregate.state.status == "active":
        state = aggregate.state
        deadline = state.rules.deadline(state.table)
        seat = state.rules.to_act(state.table)[0]
        if deadline is not None and seat == 1 and not answered_late:
            answered_late = True
            now = deadline + LATE
            # Decided after the expiry: what is legal then, as the late client had to send.
            state = game_state.fold(state, game.expire(state, now=now, version=aggregate.version))
        else:
            now += timedelta(seconds=1)
        command = rng.choice(state.rules.legal_commands(state.table, seat))
        command_id = f"c{aggregate.version + 1}"
        aggregate.act(player_id=PLAYERS[seat], command=command, command_id=command_id, now=now)
    return aggregate


def recorded(aggregate: GameAggregate) -> list[Recorded]:
    return list(aggregate.pending_events)  # type: ignore[arg-type]


def blocks(aggregate: GameAggregate) -> dict[str, str]:
    """Every generated block of the example, by name."""
    events = recorded(aggregate)
    stream = RandomStream(SEED, str(GAME_ID), CLIENT_SEEDS)
    late = next(r for r in events if r.expiry is not None)
    return {
        "bundle": bundle_text(aggregate),
        "draws": draws_text(stream, events),
        "salts": salts_text(stream, events),
        "hash": hash_text(late),
    }


def bundle_text(aggregate: GameAggregate) -> str:
    """The export bundle, one event a line, as `GET /games/{id}/export` serves it."""
    header = {"format": FORMAT, "game_id": str(aggregate.id), "variant": aggregate.state.variant}
    lines = [msgspec.json.encode(event_out(r, FULL)).decode() for r in recorded(aggregate)]
    return (
        msgspec.json.encode(header).decode()[:-1] + ',"events":[\n' + ",\n".join(lines) + "\n]}\n"
    )


def draws_text(stream: RandomStream, events: list[Recorded]) -> str:
    deal = stream.draw("deal/1")
    swaps = ", ".join(f"i={i} j={deal.below(i + 1)}" for i in range(53, 49, -1))
    dealt = next(r.payload for r in events if isinstance(r.payload, HandDealt))
    playable = dealt.hands[1].unwrap()
    pick = stream.draw("timeout/round/1/seat/1").below(len(playable))
    return (
        f"seed                    {SEED.hex()}\n"
        f"seed_commitment         {commitment(SEED)}\n"
        f"block(deal/1, 0)        {stream.draw('deal/1').take(32).hex()}\n"
        f"deal/1 first swaps      {swaps}\n"
        f"timeout/round/1/seat/1  uniform({len(playable)}) = {pick}: {playable[pick]}\n"
    )


def salts_text(stream: RandomStream, events: list[Recorded]) -> str:
    """Every salt of the log and the label it came from."""
    labels = {
        stream.salt(label): label
        for version in range(len(events))
        for label in (f"command/{version}", *(f"seal/{version}/{k}" for k in range(8)))
    }
    lines = []
    for event in events:
        kind = msgspec.structs.asdict(event.payload)
        found = [*_secrets(kind, tag_of(event.payload))]
        if event.command is not None:
            found.append(("command", event.command))
        for path, secret in found:
            if secret.salt is not None:
                label = labels[secret.salt]
                lines.append(f"{event.originator_version:>5}  {path:<26}{label:<13}{secret.salt}")
    return "event  secret                    label        salt\n" + "\n".join(lines) + "\n"


def _secrets(fields: dict[str, Any], name: str) -> Iterator[tuple[str, Secret[Any]]]:
    for field, value in fields.items():
        if isinstance(value, Secret):
            yield f"{name}.{field}", value
        elif isinstance(value, tuple):
            for index, item in enumerate(value):
                if isinstance(item, Secret):
                    yield f"{name}.{field}[{index}]", item


def hash_text(event: Recorded) -> str:
    """One event's hash, step by step."""
    body = hashed_body(
        game_id=str(GAME_ID),
        version=event.originator_version,
        timestamp=event.timestamp,
        actor=event.actor,
        command_id=event.command_id,
        command=event.command,
        payload=event.payload,
        expiry=event.expiry,
    )
    assert event.prev_hash != GENESIS
    return (
        f"prev_hash  {event.prev_hash}\n"
        f"body       {canonical(body).decode()}\n"
        f"hash       {event.hash}\n"
    )


def rewrite(text: str, generated: dict[str, str]) -> str:
    """The document with each example block replaced by its generated text."""
    return BLOCK.sub(lambda m: f"<!-- example:{m[1]} -->\n{m[2]}\n{generated[m[1]]}```\n", text)


def main() -> int:
    DOC.write_text(rewrite(DOC.read_text(), blocks(play())))
    print(f"wrote the worked example into {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
