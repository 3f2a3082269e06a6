"""Levels 3 to 5: determinized Monte Carlo search over the deals the seat cannot rule out.

A decision samples worlds: full game states that agree with everything the seat has seen, the
cards it cannot see dealt at random (``World``, one per variant, reads nothing but the view).
In each world every candidate command is played, then the game is played on by random legal
commands for at most ``horizon`` moves, and scored for the seat (``value``). The candidate with
the best total wins. Every candidate meets the same worlds and the same rollout draws, so the
comparison is between moves, not between luck. The budget is counted in rollouts (worlds times
candidates), never in time: a decision is reproducible from its draw.

Rollouts cut short at the horizon are scored by the points as they stand, which is the
evaluation the variants' own running scores give for free.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

import msgspec

from bots.contract import Player, moves, placed_above, uniform
from domain.choices import Choice, command_at, representatives
from domain.commands import Command
from domain.errors import RuleViolation
from domain.fairness import Draw
from domain.game_state import GameState
from domain.variant import Turn, Variant
from projections.views import View

ROLLOUT_TIME = datetime(2000, 1, 1, tzinfo=UTC)
"""The clock of every rollout: before any deadline of a real game, so none expires on its own
(every seat acts at once in a rollout)."""


class World(Protocol):
    """A variant's sampler: a full state agreeing with the view, hidden cards drawn at random."""

    def sample(self, view: View, draw: Draw) -> GameState: ...


def value(rules: Variant[Any, Any], table: Any, seat: int) -> float:
    """How well ``seat`` stands, 0..1: the share of the other seats still in that it places
    above (½ for level), a winner above a non-winner, then by points (lower is better where the
    variant's lowest wins)."""
    scores = rules.scores(table)
    outcome = rules.outcome(table)
    winners = outcome.winners if outcome is not None else ()
    sign = -1 if rules.lower_score_wins else 1

    def key(index: int) -> tuple[bool, int]:
        return index in winners, sign * scores[index]

    others = [i for i in rules.seated(table) if i != seat]
    if not others:
        return 1.0
    mine = key(seat)
    beaten = sum(placed_above(mine, key(o)) for o in others)
    return beaten / len(others)


def candidates(
    view: View, draw: Draw, per_form: int, first: Command | None = None
) -> list[Command]:
    """The commands worth comparing: ``first`` (if any), every listed command, and of each
    choice form its representatives and ``per_form`` more drawn from it (forms can hold
    hundreds)."""
    found: list[Command] = []
    keys: set[bytes] = set()

    def add(command: Command) -> None:
        key = msgspec.json.encode(command)
        if key not in keys:
            keys.add(key)
            found.append(command)

    if first is not None:
        add(first)
    for entry in moves(view):
        if isinstance(entry, Choice):
            for command in representatives(entry):
                add(command)
            for _ in range(min(per_form, entry.count)):
                add(command_at(entry, draw.below(entry.count)))
        else:
            add(entry)
    return found


class Rollout:
    """One world played on at the level of the variant's table: its rules' ``decide`` and
    ``evolve`` alone, as the lifecycle around them (leaving, cancelling) never happens here."""

    def __init__(self, world: GameState, version: int) -> None:
        self.rules = world.rules
        self.table = world.table
        self.rng = world.stream
        self.version = version

    def act(self, seat: int, command: Command) -> None:
        turn = Turn(ROLLOUT_TIME, self.rng, self.version)
        for event in self.rules.decide(self.table, seat, command, turn):
            self.table = self.rules.evolve(self.table, event)
            self.version += 1

    def play_on(self, draw: Draw, horizon: int) -> None:
        """Uniformly random legal commands, at most ``horizon`` of them, until the game ends or
        only a timer could move it on."""
        for _ in range(horizon):
            if self.rules.outcome(self.table) is not None:
                return
            awaited = self.rules.to_act(self.table)
            if not awaited:
                return
            seat = awaited[0]
            self.act(seat, uniform(self.rules.legal_moves(self.table, seat), draw))


class Search:
    """A search level: ``rollouts`` rollouts a decision (spread over the candidates), each at
    most ``horizon`` moves long. With a ``prior`` (the variant's rule-based player), its command
    stands unless another candidate beat it in the same worlds by more than twice the standard
    error of their difference: a few noisy rollouts never overturn a sound rule. ``capped``
    (algorithm 2 on) compares at most half as many candidates as there are rollouts, so that the
    budget bounds a decision's work whatever the position offers."""

    def __init__(
        self,
        world: World,
        *,
        rollouts: int,
        horizon: int,
        prior: Player | None = None,
        per_form: int = 8,
        capped: bool = False,
    ) -> None:
        self.world = world
        self.rollouts = rollouts
        self.horizon = horizon
        self.prior = prior
        self.per_form = per_form
        self.capped = capped

    def choose(self, view: View, draw: Draw) -> Command:
        seat = view.seat
        assert seat is not None, "a bot decides for a seat"
        ruled = self.prior.choose(view, draw) if self.prior is not None else None
        options = candidates(view, draw, self.per_form, first=ruled)
        if self.capped:
            options = at_most(
                options, max(2, self.rollouts // 2), draw, keep_first=ruled is not None
            )
        if len(options) == 1:
            return options[0]
        scores: list[list[float]] = [[] for _ in options]
        for _ in range(max(1, self.rollouts // len(options))):
            world = self.world.sample(view, draw)
            rollout_label = draw.take(16)
            for index, command in enumerate(options):
                scores[index].append(self._try(world, seat, command, view.version, rollout_label))
        best = _best([sum(found) for found in scores])
        if ruled is not None and not _clearly_better(scores[best], scores[0]):
            return ruled
        return options[best]

    def _try(
        self, world: GameState, seat: int, command: Command, version: int, label: bytes
    ) -> float:
        rollout = Rollout(world, version)
        try:
            rollout.act(seat, command)
        except RuleViolation:
            return 0.0  # legal in the view but not in this world: never the case for a sound World
        rollout.play_on(Draw(label, b"rollout"), self.horizon)
        return value(rollout.rules, rollout.table, seat)


def at_most(options: list[Command], most: int, draw: Draw, *, keep_first: bool) -> list[Command]:
    """At most ``most`` of ``options``, drawn at random (the first kept where ``keep_first``):
    with more candidates than the budget has rollouts, the work would grow with the candidates,
    not the budget (a face-down play of One Up One Down has up to 169)."""
    if len(options) <= most:
        return options
    kept = options[:1] if keep_first else []
    return kept + list(draw.shuffle(options[len(kept) :]))[: most - len(kept)]


def _best(totals: Sequence[float]) -> int:
    return max(range(len(totals)), key=lambda index: (totals[index], -index))


def _clearly_better(scores: Sequence[float], than: Sequence[float]) -> bool:
    """Whether ``scores`` beat ``than`` (paired, world by world) by more than twice the standard
    error of the difference."""
    differences = [a - b for a, b in zip(scores, than, strict=True)]
    if len(differences) < 2:
        return False
    mean = statistics.fmean(differences)
    return mean > 2 * statistics.stdev(differences) / math.sqrt(len(differences))
