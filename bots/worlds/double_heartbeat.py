"""Double Heartbeat worlds: the others' hands and, for all but the dealer, the buried cards.

Each hand is dealt afresh from the double deck (every card twice, so the unseen cards are a
multiset). What a seat has seen of the hand in play: its own hand, every card played so far
(the discards) and, as the dealer, what it buried. Nobody must beat a play, so a pass reveals
nothing and the unseen cards are dealt uniformly: to each other hand as many as it holds, and
to the buried pile as many as the dealer buried. Earlier hands' cards went back into the deck.
"""

from __future__ import annotations

from bots.worlds import deal, state_of, unseen
from domain.cards import double_deck
from domain.fairness import Draw
from domain.game_state import GameState
from domain.variants.double_heartbeat.combinations import read
from domain.variants.double_heartbeat.table import DoubleHeartbeatTable, TopPlay
from domain.variants.double_heartbeat.view import DoubleHeartbeatView, TopView
from projections.views import View

BURIED = -1
"""The buried pile's key among the seats dealt to."""


class DoubleHeartbeatWorld:
    def sample(self, view: View, draw: Draw) -> GameState:
        table = view.table
        me = view.seat
        assert isinstance(table, DoubleHeartbeatView) and me is not None and view.hand is not None
        pool = unseen(double_deck(), view.hand, table.discards, table.buried or ())
        sizes = {seat: size for seat, size in enumerate(view.hand_sizes) if seat != me}
        if table.buried is None:
            sizes[BURIED] = table.buried_count
        dealt = {**deal(pool, sizes, draw), me: view.hand}
        sampled = DoubleHeartbeatTable(
            options=table.options,
            seat_count=view.seat_count,
            hands=tuple(dealt[seat] for seat in range(view.seat_count)),
            left=tuple(seat.left for seat in view.seats),
            totals=view.scores,
            bonuses=_bonuses(table, view.scores),
            allies=table.allies,
            first_dealer=table.first_dealer,
            hand_number=table.hand_number,
            dealer=table.dealer,
            phase=table.phase,
            turn=view.to_act[0] if view.to_act else None,
            leader=table.leader,
            lead_kind=table.lead_kind,
            top=_top(table.top),
            lead_on_top=table.top is not None and _plays(table) == 1,
            trick=table.trick,
            last_trick=table.last_trick,
            passed=table.passed,
            out=table.finished,
            buried=dealt[BURIED] if table.buried is None else table.buried,
            discards=table.discards,
            results=table.results,
        )
        return state_of(view, sampled, draw)


def _top(top: TopView | None) -> TopPlay | None:
    """The top play with the value it is compared by (its cards read as its type once more)."""
    if top is None:
        return None
    return TopPlay(seat=top.seat, cards=top.cards, combination=read(top.cards, top.combination))


def _plays(table: DoubleHeartbeatView) -> int:
    """The plays (not passes) of the trick so far: the lead is on top while it is the only one."""
    return sum(1 for action in table.trick if action.cards)


def _bonuses(table: DoubleHeartbeatView, totals: tuple[int, ...]) -> tuple[int, ...]:
    """The bomb bonuses of the hand in play: the totals less every settled hand."""
    settled = [
        sum(result.places[seat] + result.bonuses[seat] for result in table.results)
        for seat in range(len(totals))
    ]
    return tuple(total - before for total, before in zip(totals, settled, strict=True))
