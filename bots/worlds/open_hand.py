"""Open Hand worlds: every played card is public and nobody must follow suit, so the only
thing a seat cannot see is which unseen cards the others hold."""

from __future__ import annotations

from bots.worlds import deal, state_of, unseen
from domain.cards import standard_deck
from domain.fairness import Draw
from domain.game_state import GameState
from domain.variants.open_hand.table import OpenHandTable
from domain.variants.open_hand.view import OpenHandView
from projections.views import View


def leader_of(table: OpenHandView) -> int:
    """Who leads the trick in play: its first card's seat, else the last trick's winner, else
    the hand's first leader."""
    if table.trick:
        return table.trick[0].seat
    if table.tricks and table.tricks[-1].winner is not None:
        return table.tricks[-1].winner
    return 0 if table.leader is None else table.leader


class OpenHandWorld:
    def sample(self, view: View, draw: Draw) -> GameState:
        table = view.table
        assert isinstance(table, OpenHandView) and view.seat is not None and view.hand is not None
        played = [card for cards in table.played for card in cards]
        pool = unseen(standard_deck(), view.hand, played, table.first_leader_draws)
        others = {s: n for s, n in enumerate(view.hand_sizes) if s != view.seat}
        hands = {**deal(pool, others, draw), view.seat: view.hand}
        sampled = OpenHandTable(
            options=table.options,
            seat_count=view.seat_count,
            hands=tuple(hands[seat] for seat in range(view.seat_count)),
            left=tuple(seat.left for seat in view.seats),
            points=view.scores,
            leader=leader_of(table),
            plays=table.trick,
            tricks=table.tricks,
            draws=table.first_leader_draws,
            dealt=True,
        )
        return state_of(view, sampled, draw)
