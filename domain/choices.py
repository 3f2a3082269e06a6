"""Legal moves as a client gets them: commands ready to send, and choice forms where a kind of
command has too many to list.

A variant's ``legal_moves`` describes every legal command of a seat: plain commands, and a
choice form wherever one kind of command has too many to list (the 680 three-card passes of a
Cancellation Hearts hand, every bury of 0..k cards, the wings of an airplane). A form reads

    {"type": "choice", "command": {"type": "pass_cards", "cards": []}, "field": "cards",
     "from": [["2S"], ["5S"], ...], "min": 3, "max": 3, "count": 680}

Its expansion: take ``command`` and append to its list ``field`` the cards of between ``min``
and ``max`` entries of ``from`` (each entry at most once, in the order listed). Every such
command is legal, and together they are every legal command of that kind (for Double
Heartbeat's airplanes, up to the suits of the chain's triples, which the rules never look at:
other plays there are listed one set of suits per combination too). Two picks that give the
same cards (a double deck holds every card twice, so ``from`` may list an entry twice) are the
same command; ``count`` is the number of distinct commands the form stands for.

A view serves the moves split in two (``split``): ``legal_commands``, every entry a command to
send as it is, and ``choice_forms``, the forms themselves. A form is never sent; in its place
``legal_commands`` holds its representatives (``representatives``): for each size ``n`` from
``min`` to ``max`` (as far as ``from`` reaches), the command made of the first ``n`` entries of
``from``, which variants list lowest first or as the hand is shown: the lowest cards. So every
kind of play has a command a client can send as listed (every bury size, a pass, each airplane
chain), and a client that only ever sends listed commands can finish every game. The contract
for clients: docs/legal-commands.md.

``command_at``/``commands_of`` expand a form; ``pick`` draws one command uniformly from a whole
list of plain commands and forms together (a form weighs as many commands as it holds), so every
legal command is equally likely and every legal move reachable.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

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
    return _completed(form, nth_pick(form.options, form.min, form.max, index))


def _completed(form: Choice, picked: Sequence[str]) -> Command:
    fixed = getattr(form.command, form.field)
    cards = type(fixed)([*fixed, *picked])
    return msgspec.structs.replace(form.command, **{form.field: cards})


def commands_of(form: Choice) -> list[Command]:
    """Every command the form stands for (for tests and small forms: it may be long)."""
    return [command_at(form, index) for index in range(form.count)]


def representatives(form: Choice) -> list[Command]:
    """The form's commands that ``legal_commands`` lists: for each size ``n`` from ``min`` to
    ``max`` (as far as ``from`` reaches), the first ``n`` entries of ``from``."""
    sizes = range(form.min, min(form.max, len(form.options)) + 1)
    return [_completed(form, [card for entry in form.options[:n] for card in entry]) for n in sizes]


class Listed(msgspec.Struct, frozen=True):
    """Legal moves as a view serves them: every command ready to send, and the forms apart."""

    commands: list[Command]
    forms: list[Choice]


def split(moves: Sequence[Command | Choice]) -> Listed:
    """``moves`` as listed: each form's representatives in its place, the forms themselves
    apart (see the module docstring)."""
    commands: list[Command] = []
    forms: list[Choice] = []
    for entry in moves:
        if isinstance(entry, Choice):
            commands += representatives(entry)
            forms.append(entry)
        else:
            commands.append(entry)
    return Listed(commands=commands, forms=forms)


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
