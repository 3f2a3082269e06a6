"""docs/fairness.md's hash, batch, decision and salt rules, re-derived independently
(``tests.audit.independent``) over the committed golden log of every variant and over random
games full of expiries: applied by the server, by a late command, several in one batch."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import pytest

from domain import game, game_state
from domain.aggregate import GameAggregate
from domain.perspective import FULL
from projections.audit import audit
from projections.events import event_out
from service.tools.simulate import seated_game
from tests.audit import independent
from tests.golden import GOLDEN, SCRIPTS, as_bundle

START = datetime(2026, 5, 1, 8, 0, tzinfo=UTC)
# Client seeds the stream must take as UTF-8, length-prefixed in bytes: empty, control
# characters, non-ASCII, astral, the full 128 characters.
CLIENT_SEEDS = ["", "tab\there\x00\x1b", "é中😀\u2028", "x" * 128]
TIMED: dict[str, tuple[int, dict[str, object]]] = {
    "heartbeat": (3, {"tempo_deck": 12, "pressure_seconds": 5, "reveal_shows": "rank"}),
    "one-up-one-down": (3, {"challenge_seconds": 15, "max_plays": 60}),
}


@pytest.mark.parametrize("variant", sorted(SCRIPTS))
def test_every_golden_log_follows_the_spec(variant: str) -> None:
    bundle = json.loads(as_bundle((GOLDEN / f"{variant}.jsonl").read_bytes()))
    independent.check_chain(bundle["game_id"], bundle["events"])
    assert independent.check_salts(bundle["game_id"], bundle["events"]) > 0


def played(variant: str, rng: random.Random) -> GameAggregate:
    """A game whose deadlines pass: some applied by the server, some by a late command."""
    seats, options = TIMED[variant]
    aggregate = seated_game(variant, seats, options, rng, START, CLIENT_SEEDS[:seats])
    now = START
    for step in range(500):
        state = aggregate.state
        if state.status != "active":
            break
        deadline = state.rules.deadline(state.table)
        if deadline is not None and rng.random() < 0.4:
            # Late: past this deadline, and often past the ones it starts too.
            now = max(now, deadline + timedelta(seconds=rng.choice([0, 1, 7, 30])))
            state = game_state.fold(state, game.expire(state, now=now, version=aggregate.version))
        else:
            now += timedelta(seconds=1)
        waiting = state.rules.to_act(state.table) if state.status == "active" else ()
        if not waiting or rng.random() < 0.1:
            aggregate.expire(command_id=f"x{step}", now=now)
            continue
        seat = rng.choice(waiting)
        command = rng.choice(state.rules.legal_commands(state.table, seat))
        aggregate.act(player_id=f"p{seat}", command=command, command_id=f"m{step}", now=now)
    assert aggregate.state.over
    return aggregate


@pytest.mark.parametrize("variant", sorted(TIMED))
def test_random_games_with_expiries_follow_the_spec(variant: str) -> None:
    rng = random.Random(f"spec over logs/{variant}")
    seen = {"server": 0, "late": 0, "chained": 0}
    wanted = {"server", "late", "chained"} if variant == "heartbeat" else {"server", "late"}
    games = 0
    # Seeded: the same games every run, until each kind of marked batch has been checked (a
    # chain needs two Pressure rounds in a row, which takes a few dozen Heartbeat games).
    while games < 10 or not all(seen[kind] for kind in wanted):
        assert games < 300, seen
        games += 1
        aggregate = played(variant, rng)
        recorded = list(aggregate.pending_events)
        report = audit(str(aggregate.id), recorded)  # type: ignore[arg-type]
        assert report.verdict == "valid", [c for c in report.checks if c.status != "pass"]
        served: list[dict[str, Any]] = json.loads(
            msgspec.json.encode([event_out(r, FULL) for r in recorded])  # type: ignore[arg-type]
        )
        independent.check_chain(str(aggregate.id), served)
        independent.check_salts(str(aggregate.id), served)
        for batch in independent.batches(served):
            expiries = [d for d in independent.decisions(batch) if "expiry" in d[0]]
            if expiries:
                seen["server" if batch[0]["actor"] == "server" else "late"] += 1
                seen["chained"] += len(expiries) > 1
