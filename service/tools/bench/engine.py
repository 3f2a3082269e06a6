"""Section "engine": random playouts through the rules alone, beside RLCard's games.

A playout is a whole game (or match) of random legal commands through the variant's ``decide``
and ``evolve`` only: no aggregate, no hash chain, no store, no HTTP. Its baseline is the closest
RLCard game played by uniform random agents in the same process, so the ratio compares our rule
engine with a well-known pure-Python card-game engine on the same machine that day. RLCard is
installed by ``make bench`` only; without it every playout is set beside a fixed loop of the
deal's HMAC-SHA256 stream instead (always measurable, a weaker yardstick, and said so).
"""

from __future__ import annotations

import functools
import importlib
import itertools
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from types import ModuleType
from typing import Any, NamedTuple

import msgspec

from domain.fairness import RandomStream
from domain.variant import Turn
from domain.variants import VARIANTS
from domain.variants.double_heartbeat.choices import representatives
from service.tools.bench.figures import Figure

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)  # rules only read the clock for deadlines


class Timing(NamedTuple):
    slice_seconds: float  # how long one side runs before the other takes its turn
    rounds: int  # turns per side
    repeats: int  # timed runs per side, for figures that are a median time


QUICK = Timing(slice_seconds=0.1, rounds=1, repeats=3)
FULL = Timing(slice_seconds=1.0, rounds=6, repeats=50)


# --- measuring ----------------------------------------------------------------------------------


class Rate(NamedTuple):
    runs: int
    seconds: float
    steps: int  # moves made in all the runs

    @property
    def per_second(self) -> float:
        return self.runs / self.seconds

    @property
    def steps_per_run(self) -> float:
        return self.steps / self.runs


def alternating_rates(
    ours: Callable[[], int], theirs: Callable[[], int], timing: Timing
) -> tuple[Rate, Rate]:
    """Runs per second of each side. The two take turns, so both meet the same machine (a
    neighbour's burst or a throttled core lands on both, not on one)."""
    sides = (ours, theirs)
    for run in sides:
        run()  # warm up: first-call caches and lazy loading are not what we compare
    totals = [Rate(0, 0.0, 0), Rate(0, 0.0, 0)]
    for _ in range(timing.rounds):
        for side, run in enumerate(sides):
            runs, steps = 0, 0
            started = time.perf_counter()
            while runs == 0 or time.perf_counter() - started < timing.slice_seconds:
                steps += run()
                runs += 1
            done = totals[side]
            elapsed = done.seconds + time.perf_counter() - started
            totals[side] = Rate(done.runs + runs, elapsed, done.steps + steps)
    return totals[0], totals[1]


def alternating_medians(
    run: Callable[[], object], baseline: Callable[[], object], repeats: int
) -> tuple[float, float]:
    """Median seconds of one call of each, timed in turns after a warm-up call of each."""
    sides = (run, baseline)
    for timed in sides:
        timed()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        for side, timed in enumerate(sides):
            started = time.perf_counter()
            timed()
            times[side].append(time.perf_counter() - started)
    return statistics.median(times[0]), statistics.median(times[1])


def hmac_stream_blocks(blocks: int = 5_000) -> int:
    """A fixed amount of the primitive every deal uses: HMAC-SHA256 blocks of a random stream."""
    draw = RandomStream(bytes(32), "baseline", [""]).draw("baseline")
    for _ in range(blocks):
        draw.take(32)
    return blocks


HMAC_BASELINE = "5,000 HMAC-SHA256 blocks of the deal stream (domain.fairness)"


# --- our playouts -------------------------------------------------------------------------------


class Playout(NamedTuple):
    table: Any
    commands: int


def random_playout(variant_id: str, seats: int, seed: int, options: dict[str, object]) -> Playout:
    """A whole game through the rule engine alone, every move a random legal command of a
    random seat the game waits for; the final table and the number of commands it took."""
    rules = VARIANTS[variant_id]
    rng = random.Random(seed)
    stream = RandomStream(rng.randbytes(32), "bench", [""] * seats)  # a new deal per seed
    table = rules.setup(msgspec.convert(options, rules.options_type), seats)
    for event in rules.start(table, Turn(NOW, stream, 1)):
        table = rules.evolve(table, event)
    commands = 0
    while rules.outcome(table) is None:
        seat = rng.choice(rules.to_act(table))
        command = rng.choice(rules.legal_commands(table, seat))
        commands += 1
        for event in rules.decide(table, seat, command, Turn(NOW, stream, commands + 1)):
            table = rules.evolve(table, event)
    return Playout(table, commands)


def play_rules_only(variant_id: str, seats: int, seed: int, options: dict[str, object]) -> Any:
    """A whole match through the rule engine alone (no store, no hashing); the final table."""
    return random_playout(variant_id, seats, seed, options).table


# --- RLCard's games -----------------------------------------------------------------------------


class Pairing(msgspec.Struct, frozen=True, kw_only=True):
    """One of our tables and the RLCard game it is measured beside."""

    variant: str
    seats: int
    options: dict[str, object] = {}
    table: str  # the seats and options, in words
    rlcard_game: str
    rlcard_config: dict[str, object] = {}
    why: str  # what makes the pair comparable


PAIRINGS = (
    Pairing(
        variant="double-heartbeat",
        seats=3,
        options={"hands": 1},
        table="3 seats, one hand",
        rlcard_game="doudizhu",
        why="3 players, one deal, both climbing games with bombs (the issue's pair)",
    ),
    Pairing(
        variant="open-hand",
        seats=4,
        table="4 seats, five tricks",
        rlcard_game="bridge",
        why="4 players, one deal of trick-taking",
    ),
    Pairing(
        variant="cancellation-hearts",
        seats=8,
        table="8 seats, a match to 150",
        rlcard_game="bridge",
        why="RLCard's trick-taking game; one deal beside our whole match",
    ),
    Pairing(
        variant="heartbeat",
        seats=4,
        table="4 seats, three rounds",
        rlcard_game="limit-holdem",
        rlcard_config={"game_num_players": 4},
        why="4 players, a few rounds of hidden cards compared by value for chips",
    ),
    Pairing(
        variant="one-up-one-down",
        seats=2,
        table="2 seats, up to 300 plays",
        rlcard_game="uno",
        why="2 players shedding onto a target card, drawing when short",
    ),
)


class UniformAgent:
    """Picks uniformly among the legal actions, as RLCard's RandomAgent does, without building
    its probability vector over every action of the game (27,472 for Dou Dizhu) at each step:
    that is agent overhead, not game engine."""

    use_raw = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def eval_step(self, state: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return self.rng.choice(list(state["legal_actions"])), {}


@functools.cache
def rlcard_module() -> ModuleType | None:
    """RLCard if installed (``make bench`` installs it; it is no dependency of the project)."""
    try:
        return importlib.import_module("rlcard")
    except ImportError:
        return None


def rlcard_games(game: str, config: dict[str, object]) -> Callable[[], int] | None:
    """One random game of RLCard's ``game`` per call, returning its number of actions."""
    rlcard = rlcard_module()
    if rlcard is None:
        return None
    env = rlcard.make(game, config={"seed": 1, **config})
    rng = random.Random(1)
    env.set_agents([UniformAgent(rng) for _ in range(env.num_players)])

    def run() -> int:
        trajectories, _ = env.run(is_training=False)
        # each player's trajectory is state, action, state, ..., final state
        return sum((len(steps) - 1) // 2 for steps in trajectories)

    return run


def playout_figure(pairing: Pairing, timing: Timing) -> Figure:
    seeds = itertools.count()

    def ours() -> int:
        playout = random_playout(pairing.variant, pairing.seats, next(seeds), pairing.options)
        return playout.commands

    theirs = rlcard_games(pairing.rlcard_game, pairing.rlcard_config)
    name = f"{pairing.variant}: {pairing.table}, random playouts"
    if theirs is None:
        mine, base = alternating_rates(ours, hmac_stream_blocks, timing)
        return Figure(
            section="engine",
            name=name,
            value=mine.per_second,
            unit="runs/s",
            baseline=f"{HMAC_BASELINE}, as RLCard is not installed (`make bench` installs it)",
            baseline_value=base.per_second,
            note=f"{mine.steps_per_run:.0f} commands a game",
        )
    mine, base = alternating_rates(ours, theirs, timing)
    return Figure(
        section="engine",
        name=name,
        value=mine.per_second,
        unit="games/s",
        baseline=f"RLCard {pairing.rlcard_game}, random agents: {pairing.why}",
        baseline_value=base.per_second,
        note=(
            f"{mine.steps_per_run:.0f} commands a game; "
            f"RLCard {base.steps_per_run:.0f} actions a game"
        ),
    )


# --- Double Heartbeat's slowest listing ----------------------------------------------------------

RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
WORST_HANDS = {  # the 36-card dealer hands with the most distinct combinations found so far
    "3 of each of 12 ranks": tuple(r + s for r in RANKS[:12] for s in "SHD"),
    "two full suits and ten diamonds": tuple(
        [r + "S" for r in RANKS] + [r + "H" for r in RANKS] + [r + "D" for r in RANKS[:10]]
    ),
}


def worst_hand_figures(timing: Timing) -> list[Figure]:
    """How long a leader's legal plays take to list for the hands that have the most; beside
    the HMAC loop, a fixed cost of the same machine that our code does not change."""
    found = []
    for label, hand in WORST_HANDS.items():
        seconds, base = alternating_medians(
            functools.partial(representatives, hand), hmac_stream_blocks, timing.repeats
        )
        found.append(
            Figure(
                section="engine",
                name=f"double-heartbeat: a leader's legal combinations, 36 cards: {label}",
                value=seconds * 1000,
                unit="ms",
                baseline=HMAC_BASELINE,
                baseline_value=base * 1000,
                higher_is_better=False,
                note=f"{len(representatives(hand))} combinations, median of {timing.repeats}",
            )
        )
    return found


def figures(quick: bool) -> list[Figure]:
    timing = QUICK if quick else FULL
    return [*(playout_figure(p, timing) for p in PAIRINGS), *worst_hand_figures(timing)]
