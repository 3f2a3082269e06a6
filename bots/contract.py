"""What a bot is: a pure function from its seat's view and its own random draw to a command.

A bot sees exactly what its seat may see: the view ``GET /games/{id}/view`` returns for that seat
at that version (``projections.views.View``). Its randomness comes from its own stream, keyed by
a seed of its own (committed before the deal, revealed at the end) and labelled by seat and
version, so the audit can re-run every decision: same algorithm version, level, view, seed and
move, same command.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Protocol, TypeVar

import msgspec

from domain.choices import Choice, command_at, representatives, weight
from domain.commands import Command, Leave, VoteCancel
from domain.fairness import Draw, RandomStream
from projections.views import View

ALGORITHM: Final = 4
"""The version of every level's decisions. A change to any decision makes a new version; every
version ever recorded stays re-runnable (``bots.levels.player`` takes it). 2: search levels'
budgets resized to 50 ms and their candidates capped by the budget. 3: Open Hand's search levels
are a tree search on a fast simulator (``bots.ismcts``); the other variants decide as in 2.
4: Heartbeat's search levels too; the other variants decide as in 3."""

LEVELS: Final = range(1, 6)


class Player(Protocol):
    """One level of one variant: the command for a seat, from its view and its draw."""

    def choose(self, view: View, draw: Draw) -> Command: ...


def bot_stream(seed: bytes, game_id: str) -> RandomStream:
    """A bot's own random stream: its seed, bound to the game (no client seeds: the bot's seed
    is the server's, committed before the deal)."""
    return RandomStream(seed, game_id, ())


def bot_draw(seed: bytes, game_id: str, seat: int, version: int) -> Draw:
    """The draw for one decision: seat and version name it, so it never repeats in a game."""
    return bot_stream(seed, game_id).draw(f"bot/{seat}/{version}")


def moves(view: View) -> list[Command | Choice]:
    """The seat's variant moves as its view lists them: each choice form once, and every listed
    command that is not one of a form's representatives. Never ``leave`` or ``vote_cancel``:
    a bot plays the game to its end."""
    standing_in = [_key(c) for form in view.choice_forms for c in representatives(form)]
    entries: list[Command | Choice] = list(view.choice_forms)
    for command in view.legal_commands:
        if isinstance(command, Leave | VoteCancel):
            continue
        key = _key(command)
        if key in standing_in:
            standing_in.remove(key)  # a representative: its form is in ``entries`` already
        else:
            entries.append(command)
    return entries


def _key(command: Command) -> bytes:
    return msgspec.json.encode(command)


def below(draw: Draw, bound: int) -> int:
    """A uniform integer in ``[0, bound)`` for any bound (a form may stand for more commands
    than the stream's 32-bit draws reach): rejection sampling over whole bytes."""
    if bound <= 1 << 32:
        return draw.below(bound)
    size = (bound.bit_length() + 7) // 8 + 1
    span = 1 << (8 * size)
    limit = span - span % bound
    while True:
        value = int.from_bytes(draw.take(size), "big")
        if value < limit:
            return value % bound


def uniform(entries: Sequence[Command | Choice], draw: Draw) -> Command:
    """One command drawn uniformly from everything ``entries`` stand for (a form weighs as many
    commands as it holds)."""
    index = below(draw, sum(weight(entry) for entry in entries))
    for entry in entries:
        if index < weight(entry):
            return command_at(entry, index) if isinstance(entry, Choice) else entry
        index -= weight(entry)
    raise AssertionError("unreachable: the index is below the total weight")


class Random:
    """Level 1: a uniformly random legal command."""

    def choose(self, view: View, draw: Draw) -> Command:
        return uniform(moves(view), draw)


class Ordered(Protocol):
    def __gt__(self, other: Any, /) -> bool: ...


Placing = TypeVar("Placing", bound=Ordered)


def placed_above(mine: Placing, other: Placing) -> float:
    """One seat's standing against another's: 1 above, ½ level, 0 below (a search's value, a
    duel's share)."""
    return 1.0 if mine > other else 0.5 if mine == other else 0.0


def shares_above(points: Sequence[int], seated: Sequence[int]) -> list[float]:
    """Each seated seat's share of the other seated seats it places above by ``points`` (the
    most wins; 1 for a seat alone), 0 for the others: a fast simulator's values."""
    found = [0.0] * len(points)
    if len(seated) < 2:
        for seat in seated:
            found[seat] = 1.0
        return found
    others = len(seated) - 1
    for seat in seated:
        mine = points[seat]
        beaten = sum(placed_above(mine, points[o]) for o in seated if o != seat)
        found[seat] = beaten / others
    return found
