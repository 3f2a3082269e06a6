"""One Up One Down worlds: the others' hands, the stock and the face-down cards the seat cannot
see.

What a seat sees: its hand, every face-up or turned-up card on the pile, its own face-down
cards, the declaration on every face-down card, and what it saw go into the others' hands and
not leave since (``taken``: the shown cards of the piles each collected; ``slipped``: its own
unturned cards in piles the others collected). The cards it cannot see (the deck less those in
sight) go first to the hands it saw them go into, as far as those hands hold cards (one played
face down since may have left unseen), then at random to the rest of the others' hands, the
stock and the others' face-down cards on the pile.

A face-down card is often what it claims to be (an honest play is the usual one), so it is
dealt a card of its declared rank ``HONEST`` of the time, when one is unseen; a plain uniform
deal would make nearly every face-down card a bluff and every challenge a sure win.
"""

from __future__ import annotations

from bots.worlds import deal, state_of, unseen
from domain.cards import rank, standard_deck
from domain.fairness import Draw
from domain.game_state import GameState
from domain.variants.one_up_one_down.table import (
    Answer,
    OneUpOneDownTable,
    PileCard,
    Window,
    sort_hand,
)
from domain.variants.one_up_one_down.view import ChallengeView, OneUpOneDownView, PileCardView
from projections.views import View

HONEST = (1, 2)
"""The chance (as numerator, denominator) that a face-down card is dealt its declared rank."""


class OneUpOneDownWorld:
    def sample(self, view: View, draw: Draw) -> GameState:
        table = view.table
        me = view.seat
        assert isinstance(table, OneUpOneDownView) and me is not None and view.hand is not None
        seats = range(view.seat_count)
        slipped = table.slipped or ((),) * view.seat_count
        pool = unseen(
            standard_deck(),
            view.hand,
            [card.card for card in table.pile if card.card is not None],
        )
        held: dict[int, list[str]] = {seat: [] for seat in seats if seat != me}
        # Its own cards first: it held each after anybody was seen taking it, so where the
        # lists disagree, its own is the later news.
        for seen in (slipped, table.taken):
            for seat, cards in held.items():
                self._keep(cards, seen[seat], pool, view.hand_sizes[seat])
        pile = tuple(self._pile_card(card, pool, draw) for card in table.pile)
        stock = view.seat_count  # the stock's key among the seats dealt to
        sizes = {seat: view.hand_sizes[seat] - len(cards) for seat, cards in held.items()}
        dealt = deal(pool, {**sizes, stock: table.stock_size}, draw)
        challenge = table.challenge
        to_play = table.to_play
        sampled = OneUpOneDownTable(
            options=table.options,
            seat_count=view.seat_count,
            hands=tuple(
                view.hand if seat == me else sort_hand((*held[seat], *dealt[seat]))
                for seat in seats
            ),
            left=tuple(seat.left for seat in view.seats),
            votes=tuple(seat in table.end_votes for seat in seats),
            stock=dealt[stock],
            dealt=True,
            turn=to_play if to_play is not None else challenge.seat if challenge else 0,
            face_down_next=table.facing == "down",
            target=table.target,
            round=table.round,
            pile=pile,
            window=self._window(challenge) if challenge is not None else None,
            plays=table.plays,
            draws=table.first_player_draws,
            taken=table.taken,
            # The others' own lists are theirs alone: nothing a rollout's random play reads.
            slipped=tuple(slipped if seat == me else ((),) * view.seat_count for seat in seats),
        )
        return state_of(view, sampled, draw)

    @staticmethod
    def _keep(held: list[str], seen: tuple[str, ...], pool: list[str], size: int) -> None:
        """The cards seen going into a hand that are still unseen, the latest first, held there
        (and taken out of ``pool``) as far as the hand holds cards."""
        for card in reversed(seen):
            if len(held) < size and card in pool:
                pool.remove(card)
                held.append(card)

    @staticmethod
    def _pile_card(card: PileCardView, pool: list[str], draw: Draw) -> PileCard:
        """The pile card as it is, a hidden one dealt from ``pool`` (and taken out of it)."""
        found = card.card
        if found is None:
            claimed = [c for c in pool if rank(c) == card.declared]
            honest = draw.below(HONEST[1]) < HONEST[0]
            found = draw.choice(claimed if claimed and honest else pool)
            pool.remove(found)
        return PileCard(
            seat=card.seat,
            card=found,
            face_down=card.face_down,
            declared=card.declared,
            revealed=card.revealed,
        )

    @staticmethod
    def _window(challenge: ChallengeView) -> Window:
        answers = [Answer(seat, True) for seat in challenge.challenged]
        answers += [Answer(seat, False) for seat in challenge.declined]
        return Window(
            seat=challenge.seat,
            declared=challenge.declared,
            target=challenge.target,
            deadline=challenge.deadline,
            answers=tuple(answers),
        )
