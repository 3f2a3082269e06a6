"""Level 2 of Double Heartbeat: lead the weakest combination of the plan, follow whenever it
wins the lead cheaply, keep bombs for when the lead matters.

Every decision weighs the legal plays by the cost of the hand they leave (``plan.cost``, less
the bonus a bomb scores at once):

- The dealer buries the cards the hand is best without.
- A play that empties the hand is always made.
- Leading: when one sure winner (no unseen cards can beat it, bombs aside) leaves a single
  combination besides bombs, that winner first; else the play leaving the cheapest hand (the
  weakest combination of the plan, bombs kept back), avoiding a lead that an opponent about to
  go out could match.
- Following: pass over an ally. Else the cheapest play that is not a bomb, if the hand it
  leaves is at most a little dearer (winning the lead is worth breaking a pair; more so when an
  opponent is about to go out); else the smallest bomb when an opponent is about to go out or
  when the lead it wins lets the rest of the hand go out; else pass. Copying a fresh lead (which
  makes its player an ally) is weighed like any other play.
"""

from __future__ import annotations

from collections.abc import Callable

from bots.contract import moves
from bots.rule_based.double_heartbeat.candidates import Play, bury, plays
from bots.rule_based.double_heartbeat.plan import (
    WEAKNESS,
    Counts,
    cost,
    counts_of,
    minus,
    plays_besides_bombs,
)
from bots.rule_based.double_heartbeat.tracking import beatable, unseen
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
"""A bomb is worth the lead when the hand needs at most this many other plays after it."""
LAST_PLAY = 1 + WEAKNESS
"""The most a hand of one combination besides bombs can cost."""


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
            out = unseen((*view.hand, *table.discards, *(table.buried or ())))
            return _lead(options, counts, out, threat, draw).command
        if table.allies[seat] == table.top.seat:
            return PassTurn()
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


def _lead(options: list[Play], counts: Counts, out: Counts, threat: int | None, draw: Draw) -> Play:
    cashing = [
        play
        for play in options
        if play.after <= LAST_PLAY  # cheap and necessary: bombs only lower the cost
        and not play.combination.is_bomb
        and not beatable(play.combination, out)
        and plays_besides_bombs(minus(counts, play.command.cards)) <= 1
    ]
    if cashing:
        return _best(cashing, lambda play: play.value, draw)

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
