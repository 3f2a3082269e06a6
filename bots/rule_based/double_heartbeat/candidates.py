"""The commands the rule-based player weighs, made from its legal moves.

Plain plays are taken as listed. The choice forms are completed the way the plan wants: an
airplane+pairs chain takes as wings the pairs whose loss costs the rest of the hand least, and
the dealer buries the cards whose loss makes the hand cheapest to shed.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import msgspec

from bots.rule_based.double_heartbeat.plan import BONUS_SCALE, Counts, cost, minus
from domain.cards import rank
from domain.choices import Choice
from domain.commands import Command
from domain.variants.double_heartbeat.combinations import Combination, Kind, read
from domain.variants.double_heartbeat.messages import BuryCards, PlayCombination


class Play(msgspec.Struct, frozen=True):
    """A legal play and what it does to the hand: ``after`` is the cost of the cards left."""

    command: PlayCombination
    combination: Combination
    after: float
    empties: bool

    @property
    def value(self) -> float:
        """The cost of the hand after the play, less the bonus the play scores at once."""
        return self.after - self.combination.bonus / BONUS_SCALE


def plays(entries: Sequence[Command | Choice], counts: Counts) -> list[Play]:
    """Every play among ``entries`` (airplane+pairs forms completed with their best wings)."""
    held = sum(counts)
    found: list[Play] = []
    for entry in entries:
        if isinstance(entry, Choice):
            if not isinstance(entry.command, PlayCombination):
                continue
            command = _with_wings(entry, counts)
        elif isinstance(entry, PlayCombination):
            command = entry
        else:
            continue
        left = minus(counts, command.cards)
        found.append(
            Play(
                command=command,
                combination=_reading(tuple(command.cards), command.combination),
                after=cost(left),
                empties=len(command.cards) == held,
            )
        )
    return found


@lru_cache(maxsize=1 << 14)
def _reading(cards: tuple[str, ...], kind: Kind | None) -> Combination:
    """What a listed play reads as (the same plays come back turn after turn)."""
    return read(cards, kind)


def _with_wings(form: Choice, counts: Counts) -> PlayCombination:
    """The chain of ``form`` with the wings (pairs from ``form.options``) that cost least."""
    assert isinstance(form.command, PlayCombination)
    left = minus(counts, form.command.cards)
    options = list(form.options)
    chosen: list[tuple[str, ...]] = []
    for _ in range(form.min):
        by_rank = {rank(pair[0]): pair for pair in options}  # pairs of one rank cost alike
        best = min(by_rank.values(), key=lambda pair: cost(minus(left, pair)))
        options.remove(best)
        chosen.append(best)
        left = minus(left, best)
    cards = [*form.command.cards, *(card for pair in chosen for card in pair)]
    return msgspec.structs.replace(form.command, cards=cards)


def bury(form: Choice, counts: Counts) -> BuryCards:
    """The dealer's bury: one card at a time, the one whose loss lowers the hand's cost most,
    as long as a card's loss does not make the hand dearer (a bomb's cards are worth keeping)."""
    options = [entry[0] for entry in form.options]
    buried: list[str] = []
    current = cost(counts)
    while len(buried) < form.max and options:
        by_rank: dict[str, str] = {}
        for option in options:  # the lowest card of each rank stands for the rank
            by_rank.setdefault(rank(option), option)
        card = min(by_rank.values(), key=lambda option: cost(minus(counts, [option])))
        after = cost(minus(counts, [card]))
        if after > current:
            break
        options.remove(card)
        buried.append(card)
        counts = minus(counts, [card])
        current = after
    return BuryCards(cards=buried)
