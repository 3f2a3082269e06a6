"""Heartbeat worlds: the others' hands and secret choices, and the order of the tempo cards.

What a seat has seen: its own hand and choice, every card played in a scored round, every card
shown in a Reveal round (with ``reveal_shows: rank``, only its rank: a card of that rank is then
dealt to the seat that showed it this round; earlier rank-only reveals are not held to, which
only widens the worlds a little) and the tempo cards flipped so far.
"""

from __future__ import annotations

from bots.worlds import deal, state_of, unseen
from domain.cards import standard_deck
from domain.fairness import Draw
from domain.game_state import GameState
from domain.variants.heartbeat.messages import TEMPO_KINDS, Tempo
from domain.variants.heartbeat.table import HeartbeatTable, Shown, public_rank
from domain.variants.heartbeat.view import HeartbeatView
from projections.views import View


class HeartbeatWorld:
    def sample(self, view: View, draw: Draw) -> GameState:
        table = view.table
        me = view.seat
        assert isinstance(table, HeartbeatView) and me is not None and view.hand is not None
        options = table.options
        seats = range(view.seat_count)
        played = [play.card for record in table.rounds for play in record.plays]
        mine_chosen = [card for card in (table.choices[me],) if card is not None]
        this_round = {s.seat: s for s in table.shown if s.round == table.round}
        held: dict[int, list[str]] = {seat: [] for seat in seats}  # known cards of other hands
        for shown in table.shown:
            card = shown.card
            if shown.seat != me and card and card not in played and card not in held[shown.seat]:
                held[shown.seat].append(card)
        pool = unseen(
            standard_deck(jokers=options.jokers == "zero"),
            view.hand,
            mine_chosen,
            played,
            [card for cards in held.values() for card in cards],
        )
        shown_now: dict[int, str] = {seat: s.card for seat, s in this_round.items() if s.card}
        for seat, shown in this_round.items():
            if seat not in shown_now:  # shown by rank only: some card of that rank
                fitting = [card for card in pool if public_rank(card) == shown.rank]
                card = draw.choice(fitting) if fitting else draw.choice(pool)
                pool.remove(card)
                held[seat].append(card)
                shown_now[seat] = card
        chosen: list[str | None] = [None] * view.seat_count
        chosen[me] = table.choices[me]
        pool = list(draw.shuffle(pool))
        for seat in seats:
            if seat != me and table.chosen[seat]:
                chosen[seat] = pool.pop()
        sizes = {s: view.hand_sizes[s] - len(held[s]) for s in seats if s != me}
        dealt = deal(pool, sizes, draw)
        hands = tuple(view.hand if seat == me else (*held[seat], *dealt[seat]) for seat in seats)
        sampled = HeartbeatTable(
            options=options,
            seat_count=view.seat_count,
            hands=hands,
            left=tuple(seat.left for seat in view.seats),
            chips=table.chips,
            dealt=True,
            tempo_deck=self._tempo_deck(table, draw),
            tempo=table.tempo,
            deadline=view.deadline,
            shown=tuple(shown_now.get(seat) for seat in seats),
            chosen=tuple(chosen),
            reveals=tuple(
                Shown(round=s.round, seat=s.seat, rank=s.rank, card=s.card or s.rank)
                for s in table.shown
            ),
            rounds=table.rounds,
        )
        return state_of(view, sampled, draw)

    @staticmethod
    def _tempo_deck(table: HeartbeatView, draw: Draw) -> tuple[Tempo, ...]:
        each = table.options.tempo_deck // len(TEMPO_KINDS)
        left = [kind for kind in TEMPO_KINDS for _ in range(each)]
        flipped = [record.tempo for record in table.rounds] + [table.tempo]
        for tempo in flipped:
            if tempo is not None and tempo in left:
                left.remove(tempo)
        return tuple(draw.shuffle(left))[: table.tempo_cards_left]
