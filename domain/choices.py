"""Choice forms: one entry of a seat's legal commands that stands for many commands at once.

Where listing every legal command would swamp a view (the 680 three-card passes of a Cancellation
Hearts hand, every bury of 0..4 cards, the wings of an airplane), the list holds one form instead:

    {"type": "choice", "command": {"type": "pass_cards", "cards": []}, "field": "cards",
     "from": [["2S"], ["5S"], ...], "min": 3, "max": 3, "count": 680}

Read it as: take ``command`` and append to its list ``field`` the cards of between ``min`` and
``max`` entries of ``from`` (each entry at most once, in the order listed). Every such pick is a
legal command, and nothing else of that shape is. Two picks that give the same cards (a double
deck holds every card twice, so ``from`` may list an entry twice) are the same command; ``count``
is the number of distinct commands the form stands for.

``command_at``/``commands_of`` turn a form into concrete commands; ``pick`` draws one command
uniformly from a whole list of plain commands and forms together, so every legal command is
equally likely and every legal move reachable; ``body`` does the same for one entry as a client
receives it (JSON), for the HTTP bots.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from domain.commands import Command

CHOICE_TAG = "choice"


class Choice(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    tag=CHOICE_TAG,
    forbid_unknown_fields=True,
):
    """A compact form of many legal commands (see the module docstring)."""

    command: Command
    field: str
    options: tuple[tuple[str, ...], ...] = msgspec.field(name="from")
    min: int
    max: int
    count: int


def choice(command: Command, options: Sequence[Sequence[str]], *, least: int, most: int) -> Choice:
    """The form ``command`` + ``least..most`` entries of ``options`` appended to its cards."""
    entries = tuple(tuple(entry) for entry in options)
    return Choice(
        command=command,
        field="cards",
        options=entries,
        min=least,
        max=most,
        count=count_picks(entries, least, most),
    )


# --- counting and unranking the distinct picks ------------------------------------------------


def _kinds(options: Sequence[Sequence[str]]) -> list[tuple[tuple[str, ...], int]]:
    """Equal entries grouped (first appearance first): each distinct entry and how often."""
    counts: dict[tuple[str, ...], int] = {}
    for entry in options:
        key = tuple(entry)
        counts[key] = counts.get(key, 0) + 1
    return list(counts.items())


def _ways(multiplicities: Sequence[int], most: int) -> list[list[int]]:
    """``ways[i][k]``: distinct picks of exactly ``k`` entries among the kinds ``i..``."""
    ways = [[0] * (most + 1) for _ in range(len(multiplicities) + 1)]
    ways[-1][0] = 1
    for index in range(len(multiplicities) - 1, -1, -1):
        for k in range(most + 1):
            ways[index][k] = sum(
                ways[index + 1][k - taken] for taken in range(min(multiplicities[index], k) + 1)
            )
    return ways


def count_picks(options: Sequence[Sequence[str]], least: int, most: int) -> int:
    """How many distinct commands picking ``least..most`` entries of ``options`` makes."""
    kinds = _kinds(options)
    most = min(most, len(options))
    if least > most:
        return 0
    ways = _ways([times for _, times in kinds], most)
    return sum(ways[0][k] for k in range(least, most + 1))


def nth_pick(options: Sequence[Sequence[str]], least: int, most: int, index: int) -> list[str]:
    """The cards of the ``index``-th distinct pick (0-based, a fixed order): unranking, so a
    uniform ``index`` gives a uniform command."""
    kinds = _kinds(options)
    most = min(most, len(options))
    ways = _ways([times for _, times in kinds], most)
    for size in range(least, most + 1):
        if index < ways[0][size]:
            break
        index -= ways[0][size]
    else:
        raise IndexError("no such pick")
    cards: list[str] = []
    for position, (entry, times) in enumerate(kinds):
        for taken in range(min(times, size), -1, -1):  # earlier entries first
            block = ways[position + 1][size - taken]
            if index < block:
                cards += list(entry) * taken
                size -= taken
                break
            index -= block
    return cards


# --- concrete commands --------------------------------------------------------------------------


def command_at(form: Choice, index: int) -> Command:
    """The ``index``-th command the form stands for."""
    picked = nth_pick(form.options, form.min, form.max, index)
    fixed = getattr(form.command, form.field)
    cards = type(fixed)([*fixed, *picked])
    return msgspec.structs.replace(form.command, **{form.field: cards})


def commands_of(form: Choice) -> list[Command]:
    """Every command the form stands for (for tests and small forms: it may be long)."""
    return [command_at(form, index) for index in range(form.count)]


def first_command(form: Choice) -> Command:
    return command_at(form, 0)


def weight(entry: Command | Choice) -> int:
    """How many commands one entry of a legal list stands for."""
    return entry.count if isinstance(entry, Choice) else 1


def pick(entries: Sequence[Command | Choice], rng: random.Random) -> Command:
    """One command drawn uniformly from everything ``entries`` stand for."""
    index = rng.randrange(sum(weight(entry) for entry in entries))
    for entry in entries:
        if index < weight(entry):
            return command_at(entry, index) if isinstance(entry, Choice) else entry
        index -= weight(entry)
    raise AssertionError("unreachable: the index is below the total weight")


# --- the same on the wire (what a view's legal_commands holds as JSON) ------------------------


def is_choice(entry: Mapping[str, Any]) -> bool:
    return entry.get("type") == CHOICE_TAG


def body(entry: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A ready-to-send body for one entry of a view's ``legal_commands``: the entry itself, or,
    for a choice form, one of its commands drawn uniformly."""
    if not is_choice(entry):
        return dict(entry)
    options = [list(option) for option in entry["from"]]
    least, most = int(entry["min"]), int(entry["max"])
    index = rng.randrange(count_picks(options, least, most))
    sent = dict(entry["command"])
    field = str(entry["field"])
    sent[field] = [*sent.get(field, []), *nth_pick(options, least, most, index)]
    return sent
