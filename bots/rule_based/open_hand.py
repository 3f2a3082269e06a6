"""Level 2 of Open Hand (RULES.md §3): lead the lowest card; follow with the cheapest card that
beats the table, or throw the lowest when none does.

Every seat plays each of its cards once, one a trick, so the score is decided by where each card
goes. The leader shows its card to everyone after it and seldom keeps the trick, so it gives up
its least useful card. A follower that can beat the table spends the least it can: if nobody
after it tops that card, the trick cost no more than it had to; if somebody does, that player
used up a higher card. A follower that cannot beat the table keeps its better cards for later.
Cards never tie (rank, then suit, orders all 52), so no draw is needed.

Measured on duplicate deals (``bots.duel``, 200-300 deals at 3 to 8 seats), no refinement tried
beat these rules, and none did clearly better against random play. Their shares against these
rules: keeping a winner back when the unseen cards say a later player almost surely tops it
47-50%; following with the cheapest card likely to hold rather than the cheapest that wins
46-47%; leading a sure winner 49-50%, a likely winner 46-49%, the best card 43-45%.
"""

from __future__ import annotations

from bots.contract import moves
from domain.commands import Command, PlayCard
from domain.fairness import Draw
from domain.variants.open_hand.rules import strength
from domain.variants.open_hand.view import OpenHandView
from projections.views import View


class OpenHandRuleBased:
    """Open Hand's rule-based player (the module docstring gives its rules)."""

    def choose(self, view: View, draw: Draw) -> Command:
        offered = {move.card: move for move in moves(view) if isinstance(move, PlayCard)}
        return offered[card_to_play(view)]


def card_to_play(view: View) -> str:
    """The card the rules pick for the seat on turn."""
    table = view.table
    assert isinstance(table, OpenHandView), "an Open Hand table"
    hand = sorted(view.hand or (), key=strength)
    assert hand, "a seat on turn holds a card"
    if not table.trick:
        return hand[0]
    best = max(strength(play.card) for play in table.trick)
    return next((card for card in hand if strength(card) > best), hand[0])
