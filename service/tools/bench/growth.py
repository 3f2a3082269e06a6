"""Section "growth": how replays, audits and memory grow with the length and number of games.

A replay frame and an audit both fold a game's whole log, so each is set beside the plain fold
of the same events through the aggregate, in the same run: the ratio is what rendering or
re-deciding adds to reading the game, and the per-event cost in the note shows whether that
stays flat as games grow from a hundred events to ten thousand. Memory is measured on as many
games in play as a process keeps in its cache (``CARDLEDGER_CACHED_GAMES``, 10,000), held at
once, beside the size of their stored logs.
"""

from __future__ import annotations

import gc
import random
import tracemalloc
from collections.abc import Sequence
from typing import Any, NamedTuple, cast

from eventsourcing.persistence import StoredEvent

from domain.aggregate import GameAggregate, Recorded, project
from domain.events import GameCancelled, GameFinished, GameStarted
from domain.perspective import Perspective
from projections.audit import audit
from projections.redecide import batches
from projections.replay import frames
from service.store.mapper import EnvelopeMapper
from service.tools.bench.engine import NOW, alternating_medians
from service.tools.bench.figures import Figure
from service.tools.simulate import seated_game


class Table(NamedTuple):
    variant: str
    seats: int
    options: dict[str, Any]


# The longest games the rules allow: eleven players to the highest target, ~10,000 events.
LONG_TABLE = Table("cancellation-hearts", 11, {"target": 500})
LENGTHS = (100, 1_000, 10_000)
QUICK_LENGTHS = (100, 1_000)

# A club's usual tables, for the memory of games in play.
LIVE_TABLES = (
    Table("open-hand", 4, {}),
    Table("heartbeat", 4, {}),
    Table("cancellation-hearts", 8, {}),
    Table("one-up-one-down", 3, {}),
    Table("double-heartbeat", 4, {}),
)
CACHED_GAMES = 10_000  # service.settings.Settings.cached_games


def random_game(table: Table, seed: int, stop_at: int | None = None) -> list[Recorded]:
    """A game in process, through the aggregate (hash chain, sealed commands) as the service
    plays it, every move a random legal command; the operator cancels it once it has
    ``stop_at`` events if it is not over by then (that reveals the seed, so it can be audited)."""
    rng = random.Random(seed)
    aggregate = seated_game(table.variant, table.seats, table.options, rng, NOW)
    moves = 0
    while aggregate.state.status == "active":
        if stop_at is not None and aggregate.version >= stop_at:
            aggregate.cancel(by="admin", player_id=None, command_id="stop", now=NOW)
            break
        state = aggregate.state
        seat = rng.choice(state.rules.to_act(state.table))
        command = rng.choice(state.rules.legal_commands(state.table, seat))
        aggregate.act(player_id=f"p{seat}", command=command, command_id=f"m{moves}", now=NOW)
        moves += 1
    return cast(list[Recorded], aggregate.collect_events())  # all it records are Recorded


# --- replay and audit ---------------------------------------------------------------------------


def replay_and_audit(length: int, quick: bool) -> list[Figure]:
    events = random_game(LONG_TABLE, seed=length, stop_at=length)
    count = len(events)
    ending = "finished" if isinstance(events[-1].payload, GameFinished) else "cancelled"
    game = f"{LONG_TABLE.variant} {LONG_TABLE.seats} seats, {count:,} events, {ending}"
    game_id = str(events[0].originator_id)
    last = events[-1].originator_version
    verdict = audit(game_id, events).verdict
    if verdict != "valid":  # timing an audit that stops at its first failure would mislead
        raise RuntimeError(f"the audit of the benchmark game says {verdict}")
    # about the same total time per length: many repeats of short games, a few of long ones
    repeats = max(1, 2_000 // count) if quick else max(5, 100_000 // count)

    def fold() -> object:
        return project(None, events)

    def last_frame() -> object:
        return list(frames(events, Perspective(seat=0), last, last))

    def whole_audit() -> object:
        return audit(game_id, events)

    cases = (
        ("replay, the last frame as seat 0 sees it", last_frame),
        ("audit (chain, seed, every decision re-run, scores)", whole_audit),
    )
    found = []
    for what, run in cases:
        seconds, folded = alternating_medians(run, fold, repeats)
        found.append(
            Figure(
                section="growth",
                name=f"{what}: {game}",
                value=seconds * 1000,
                unit="ms",
                baseline="folding the same events through the aggregate (aggregate.project)",
                baseline_value=folded * 1000,
                higher_is_better=False,
                note=(
                    f"{seconds / count * 1e6:.1f} µs an event, the fold "
                    f"{folded / count * 1e6:.1f}; median of {repeats}"
                ),
            )
        )
    return found


# --- memory of games in play --------------------------------------------------------------------


def live_cuts(events: Sequence[Recorded]) -> list[int]:
    """The event counts at which the game is in play: after the batch that starts it, before
    the batch that ends it (a process only ever holds a game between two commands)."""
    cuts, count, started = [], 0, False
    for batch in batches(events):
        if any(isinstance(r.payload, GameFinished | GameCancelled) for r in batch):
            break
        count += len(batch)
        started = started or any(isinstance(r.payload, GameStarted) for r in batch)
        if started:
            cuts.append(count)
    return cuts


def logs_in_play(
    table: Table, games: int, sources: int, mapper: EnvelopeMapper
) -> list[list[StoredEvent]]:
    """``games`` stored logs of games in play: each one of ``sources`` random games cut at a
    random moment of its play."""
    rng = random.Random(table.variant)
    logs: list[list[StoredEvent]] = []
    for source in range(sources):
        events = random_game(table, seed=source)
        stored = [mapper.to_stored_event(event) for event in events]
        cuts = live_cuts(events)
        logs += [stored[: rng.choice(cuts)] for _ in range(games // sources)]
    return logs


def load(log: list[StoredEvent], mapper: EnvelopeMapper) -> GameAggregate:
    """A game from its stored events, decoded and folded as the repository does on a cache miss
    (decoding anew, so no two games share objects the way two cuts of one log would)."""
    aggregate = project(None, (mapper.to_domain_event(stored) for stored in log))
    if aggregate is None or aggregate.state.status != "active":
        raise RuntimeError("a game meant to be in play is not")
    return aggregate


def held_bytes(groups: list[list[list[StoredEvent]]], mapper: EnvelopeMapper) -> list[int]:
    """The memory that each group's games hold once loaded, every game of every group kept
    until the end (so all of them are held at once, as a full cache holds them)."""
    held: list[GameAggregate | None] = [None] * sum(map(len, groups))  # allocated untraced
    slots = iter(range(len(held)))
    grown = []
    gc.collect()
    tracemalloc.start()
    try:
        for logs in groups:
            before = tracemalloc.get_traced_memory()[0]
            for log in logs:
                held[next(slots)] = load(log, mapper)
            gc.collect()
            grown.append(tracemalloc.get_traced_memory()[0] - before)
    finally:
        tracemalloc.stop()
    return grown


def memory_figures(quick: bool) -> list[Figure]:
    per_table = 20 if quick else CACHED_GAMES // len(LIVE_TABLES)
    sources = 2 if quick else 40  # random games per table, each cut at many moments
    mapper = EnvelopeMapper()
    groups = [logs_in_play(table, per_table, sources, mapper) for table in LIVE_TABLES]
    for logs in groups:
        load(logs[0], mapper)  # warm the decoders and caches, which are no game's memory
    grown = held_bytes(groups, mapper)
    everything = [log for logs in groups for log in logs]
    found = [
        memory_figure(f"{table.variant} {table.seats} seats", size, logs, len(everything))
        for table, size, logs in zip(LIVE_TABLES, grown, groups, strict=True)
    ]
    found.append(memory_figure("all five tables", sum(grown), everything, len(everything)))
    return found


def memory_figure(what: str, grown_bytes: int, logs: list[list[StoredEvent]], held: int) -> Figure:
    games = len(logs)
    share = f"{games:,} of {held:,}" if games < held else f"all {held:,}"
    log_bytes = sum(len(stored.state) for log in logs for stored in log)
    events = sum(len(log) for log in logs)
    return Figure(
        section="growth",
        name=f"memory per game in play: {what}",
        value=grown_bytes / games / 1024,
        unit="KiB",
        baseline="the game's stored log (every event's JSON, EnvelopeMapper)",
        baseline_value=log_bytes / games / 1024,
        higher_is_better=False,
        note=f"{share} games held at once, {events / games:.0f} events a game; tracemalloc",
    )


def figures(quick: bool) -> list[Figure]:
    lengths = QUICK_LENGTHS if quick else LENGTHS
    found = [figure for length in lengths for figure in replay_and_audit(length, quick)]
    return found + memory_figures(quick)
