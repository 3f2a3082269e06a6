"""Golden replays: one deterministic game per variant, its whole log committed as a fixture.

`make golden` writes tests/golden/<variant>.jsonl (a header line, then one event per line, so a
rules change shows as a reviewable diff); the tests replay the same script and demand the same
bytes, and audit the committed logs with today's code (old logs must stay verifiable).
"""

from __future__ import annotations

import random
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import msgspec

from domain import game
from domain.aggregate import GameAggregate
from domain.choices import pick
from domain.perspective import FULL
from projections.events import event_out
from service.application.bundle import FORMAT

GOLDEN = Path(__file__).parent / "golden"
START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
SCRIPTS: dict[str, tuple[int, dict[str, object]]] = {
    "open-hand": (4, {"first_leader": "high_card"}),
    "heartbeat": (3, {"tempo_deck": 8, "reveal_shows": "rank"}),
    "one-up-one-down": (3, {"max_plays": 40, "challenge_seconds": 0}),
    "cancellation-hearts": (6, {"target": 50}),
    "double-heartbeat": (3, {"hands": 1}),
}


def play(variant: str) -> GameAggregate:
    """The scripted game: fixed id, seed, clock and bot choices."""
    seats, options = SCRIPTS[variant]
    rng = random.Random(f"golden/{variant}")
    game_id = uuid.uuid5(uuid.NAMESPACE_URL, f"cardledger/golden/{variant}")
    now = START
    events = game.create(
        game_id=str(game_id),
        variant_id=variant,
        seat_count=seats,
        options=options,
        creator_id="golden-0",
        creator_name="Player 0",
        client_seed="golden seat 0",
        seed=bytes(range(32)),
    )
    aggregate = GameAggregate.open(game_id, events, actor="seat:0", command_id="create", now=now)
    for seat in range(1, seats):
        aggregate.join(
            player_id=f"golden-{seat}",
            name=f"Player {seat}",
            client_seed=f"golden seat {seat}",
            command_id=f"join-{seat}",
            now=now,
        )
    moves = 0
    while aggregate.state.status == "active":
        state = aggregate.state
        seat = rng.choice(state.rules.to_act(state.table))
        command = pick(state.rules.legal_moves(state.table, seat), rng)
        now += timedelta(seconds=1)
        aggregate.act(
            player_id=f"golden-{seat}", command=command, command_id=f"move-{moves}", now=now
        )
        moves += 1
    return aggregate


def render(aggregate: GameAggregate) -> bytes:
    header = {"format": FORMAT, "game_id": str(aggregate.id), "variant": aggregate.state.variant}
    lines = [msgspec.json.encode(header)]
    lines += [msgspec.json.encode(event_out(r, FULL)) for r in aggregate.pending_events]  # type: ignore[arg-type]
    return b"\n".join(lines) + b"\n"


def as_bundle(text: bytes) -> bytes:
    """The .jsonl form turned into the bundle `cardledger verify` reads."""
    header, *events = text.splitlines()
    return header[:-1] + b',"events":[' + b",".join(events) + b"]}"


def main() -> int:
    GOLDEN.mkdir(exist_ok=True)
    for variant in SCRIPTS:
        path = GOLDEN / f"{variant}.jsonl"
        path.write_bytes(render(play(variant)))
        print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
