"""`cardledger bench`: timings printed as ratios to a baseline measured in the same run.

Absolute times depend on the machine; the ratio to the baseline (a fixed amount of HMAC-SHA256,
the primitive every deal uses) is what to compare between runs and machines. Nothing here is
asserted: the test suite never times anything.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from domain.aggregate import GameAggregate, Recorded
from domain.fairness import RandomStream
from domain.perspective import Perspective
from domain.variant import Turn
from domain.variants import VARIANTS
from domain.variants.double_heartbeat.choices import representatives
from projections.audit import audit
from projections.replay import frames
from service.application import Cardledger
from service.auth import Principal
from service.settings import Settings
from service.tools.simulate import seated_game

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def baseline() -> None:
    stream = RandomStream(bytes(32), "baseline", [""])
    draw = stream.draw("baseline")
    for _ in range(5_000):
        draw.take(32)


def play_rules_only(variant_id: str, seats: int, seed: int, options: dict[str, object]) -> Any:
    """A whole match through the rule engine alone (decide and evolve, no store, no hashing),
    every move a random legal command; returns the final table."""
    rules = VARIANTS[variant_id]
    rng = random.Random(seed)
    stream = RandomStream(bytes(32), "bench", [""] * seats)
    table = rules.setup(msgspec.convert(options, rules.options_type), seats)
    for event in rules.start(table, Turn(NOW, stream, 1)):
        table = rules.evolve(table, event)
    version = 1
    while rules.outcome(table) is None:
        seat = rng.choice(rules.to_act(table))
        command = rng.choice(rules.legal_commands(table, seat))
        version += 1
        for event in rules.decide(table, seat, command, Turn(NOW, stream, version)):
            table = rules.evolve(table, event)
    return table


def rules_only_match(
    variant_id: str, seats: int, seed: int, options: dict[str, object]
) -> Callable[[], None]:
    def run() -> None:
        play_rules_only(variant_id, seats, seed, options)

    return run


def played_game(variant_id: str, seats: int, options: dict[str, object]) -> GameAggregate:
    rng = random.Random(7)
    aggregate = seated_game(variant_id, seats, options, rng, NOW)
    moves = 0
    while aggregate.state.status == "active":
        state = aggregate.state
        seat = rng.choice(state.rules.to_act(state.table))
        command = rng.choice(state.rules.legal_commands(state.table, seat))
        aggregate.act(player_id=f"p{seat}", command=command, command_id=f"m{moves}", now=NOW)
        moves += 1
    return aggregate


def replay_last_frame(aggregate: GameAggregate) -> Callable[[], None]:
    recorded: list[Recorded] = list(aggregate.pending_events)  # type: ignore[arg-type]
    last = recorded[-1].originator_version

    def run() -> None:
        list(frames(recorded, Perspective(seat=0), last, last))

    return run


def whole_audit(aggregate: GameAggregate) -> Callable[[], None]:
    recorded: list[Recorded] = list(aggregate.pending_events)  # type: ignore[arg-type]

    def run() -> None:
        audit(str(aggregate.id), recorded)

    return run


def commands_through_the_store(count: int) -> Callable[[], None]:
    """Open Hand games played through the application on a fresh SQLite file: `count` commands."""

    def run() -> None:
        with tempfile.TemporaryDirectory() as directory:
            ledger = Cardledger(Settings(data_dir=Path(directory)))
            players = [ledger.register_player(f"P{i}") for i in range(4)]
            principals = [Principal(player_id=p.player_id, name=p.name) for p in players]
            sent = 0
            while sent < count:
                created = ledger.create_game(
                    principals[0],
                    variant="open-hand",
                    seats=4,
                    options=None,
                    client_seed="",
                    idempotency=None,
                )
                game_id = uuid.UUID(created.game_id)
                for seat in (1, 2, 3):
                    ledger.join_game(principals[seat], game_id, client_seed="", idempotency=None)
                while (state := ledger.load(game_id).state).status == "active" and sent < count:
                    seat = state.rules.to_act(state.table)[0]
                    card = state.rules.legal_commands(state.table, seat)[0]
                    ledger.send_command(
                        principals[seat],
                        game_id,
                        {"type": "play", "card": card.card},  # type: ignore[attr-defined]
                        idempotency=None,
                        if_match=None,
                    )
                    sent += 1
            ledger.close()

    return run


def worst_hands() -> dict[str, tuple[str, ...]]:
    """The 36-card Double Heartbeat hands with the most distinct legal combinations found."""
    ranks = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
    return {
        "3 of each of 12 ranks": tuple(r + s for r in ranks[:12] for s in "SHD"),
        "two full suits and ten diamonds": tuple(
            [r + "S" for r in ranks] + [r + "H" for r in ranks] + [r + "D" for r in ranks[:10]]
        ),
    }


def listing(hand: tuple[str, ...]) -> Callable[[], None]:
    def run() -> None:
        representatives(hand)

    return run


def measure(run: Callable[[], None], repeats: int) -> float:
    run()  # warm up
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(repeats: int = 5) -> int:
    base = measure(baseline, repeats)
    hearts = played_game("cancellation-hearts", 11, {})
    cases: list[tuple[str, Callable[[], None], int]] = [
        ("open-hand: 8-player game, rules only", rules_only_match("open-hand", 8, 1, {}), repeats),
        (
            "cancellation-hearts: 11-player match to 150, rules only",
            rules_only_match("cancellation-hearts", 11, 11, {}),
            repeats,
        ),
        (
            f"replay: last frame of that match ({hearts.version} events), seat view",
            replay_last_frame(hearts),
            repeats,
        ),
        (
            "audit: that whole match (chain, seed, every decision re-run)",
            whole_audit(hearts),
            repeats,
        ),
        ("store: 100 Open Hand commands on SQLite", commands_through_the_store(100), 3),
    ]
    cases += [
        (f"double-heartbeat: legal commands, {name}", listing(hand), repeats * 4)
        for name, hand in worst_hands().items()
    ]
    print(f"{'benchmark':<64} {'median':>10} {'× baseline':>11}")
    print(f"{'baseline: 5,000 HMAC-SHA256 blocks':<64} {base * 1000:>8.2f}ms {1.0:>11.1f}")
    for name, run, count in cases:
        seconds = measure(run, count)
        print(f"{name:<64} {seconds * 1000:>8.2f}ms {seconds / base:>11.1f}")
    return 0
