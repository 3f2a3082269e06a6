"""Level 2 of Double Heartbeat: lead the weakest combination of the plan, follow when it
sheds a combination without spoiling the rest, keep bombs for when the lead matters.

Every decision weighs the legal plays by the cost of the hand they leave (``plan.cost``, less
the bonus a bomb scores at once):

- The dealer buries the cards the hand is best without.
- A play that empties the hand is always made.
- Leading: the play leaving the cheapest hand (so the weakest combination of the plan, bombs
  kept back), avoiding a lead that an opponent about to go out could match.
- Following: pass over an ally. Else the cheapest play that beats the top, if it leaves the
  hand cheaper than before (or not much dearer when an opponent is about to go out); else the
  smallest bomb when an opponent is about to go out or when the lead it wins lets the rest of
  the hand go out; else pass.
"""

from __future__ import annotations

from collections.abc import Callable

from bots.contract import moves
from bots.rule_based.double_heartbeat.candidates import Play, bury, plays
from bots.rule_based.double_heartbeat.plan import (
    Counts,
    cost,
    counts_of,
    minus,
    plays_besides_bombs,
)
from domain.choices import Choice
from domain.commands import Command
from domain.fairness import Draw
from domain.variants.double_heartbeat.messages import BuryCards, PassTurn
from domain.variants.double_heartbeat.view import DoubleHeartbeatView
from projections.views import View

DANGER = 3
"""An opponent holding this many cards or fewer may go out on their next play."""
RISKY_LEAD = 2.0
"""The extra cost of leading a combination no larger than a dangerous opponent's hand."""
FOLLOW_SLACK = 0.75
"""How much dearer a follow may leave the hand: winning the lead is worth breaking a pair."""
URGENT_SLACK = 1.5
"""How much dearer it may leave the hand when an opponent is about to go out."""
RUN_OUT = 2
ALLY = "any"
"""A bomb is worth the lead when the hand needs at most this many other plays after it."""


class DoubleHeartbeatRuleBased:
    """Level 2 for Double Heartbeat (see the module docstring)."""

    def choose(self, view: View, draw: Draw) -> Command:
        table: DoubleHeartbeatView = view.table
        seat = view.seat
        assert seat is not None and view.hand is not None
        entries = moves(view)
        counts = counts_of(view.hand)
        if table.phase == "bury":
            form = next(entry for entry in entries if isinstance(entry, Choice))
            assert isinstance(form.command, BuryCards)
            return bury(form, counts)
        options = plays(entries, counts)
        going_out = [play for play in options if play.empties]
        if going_out:
            return _best(going_out, lambda play: play.value, draw).command
        threat = _threat(view, table, seat)
        if table.top is None:
            return _lead(options, threat, draw).command
        if table.allies[seat] == table.top.seat:
            return PassTurn()
        top = table.top
        copies = [
            p
            for p in options
            if (p.combination.kind, p.combination.count, p.combination.rank)
            == (top.combination, top.count, top.rank)
        ]
        if ALLY == "never":
            options = [p for p in options if p not in copies]
        elif ALLY == "always" and copies:
            return copies[0].command
        return _follow(options, counts, threat, draw)


def _threat(view: View, table: DoubleHeartbeatView, seat: int) -> int | None:
    """The fewest cards an opponent still in the hand holds (None: no opponent holds any)."""
    ally = table.allies[seat]
    sizes = [
        size
        for other, size in enumerate(view.hand_sizes)
        if other not in (seat, ally) and size > 0 and not view.seats[other].left
    ]
    return min(sizes, default=None)


def _lead(options: list[Play], threat: int | None, draw: Draw) -> Play:
    def badness(play: Play) -> float:
        combination = play.combination
        risky = threat is not None and threat <= DANGER and combination.count <= threat
        return play.value + (RISKY_LEAD if risky and not combination.is_bomb else 0.0)

    return _best(options, badness, draw)


def _follow(options: list[Play], counts: Counts, threat: int | None, draw: Draw) -> Command:
    before = cost(counts)
    urgent = threat is not None and threat <= DANGER
    ordinary = [play for play in options if not play.combination.is_bomb]
    if ordinary:
        play = _best(ordinary, lambda p: p.value, draw)
        if play.value <= before + (URGENT_SLACK if urgent else FOLLOW_SLACK):
            return play.command
    bombs = [play for play in options if play.combination.is_bomb]
    if bombs:
        bomb = min(bombs, key=lambda play: play.combination.power)
        rest = plays_besides_bombs(minus(counts, bomb.command.cards))
        if urgent or rest <= RUN_OUT:
            return bomb.command
    return PassTurn()


def _best(options: list[Play], badness: Callable[[Play], float], draw: Draw) -> Play:
    """The least bad play; among equals the one shedding most cards, then a draw."""
    scored = [(badness(play), -play.combination.count) for play in options]
    least = min(scored)
    tied = [play for play, score in zip(options, scored, strict=True) if score == least]
    return tied[0] if len(tied) == 1 else draw.choice(tied)
