"""Cancellation Hearts worlds: the others' hands, their pending passes and the kitty, from two
decks less every card the seat has seen.

What a seat has seen this hand: its hand, its pass (pending, or delivered to a known seat: the
receiver still holds every card of it that it has not played since), what it received, the
kitty if it took it, and every card played (``hand_tricks`` and the trick on the table). From
the plays it knows who is void in which suit: a follower who did not follow the suit led holds
none of it, a heart led before hearts were broken means a hand of hearts alone, and a heart or
the queen of spades led to the first trick a hand of hearts and spades. No card reaches a hand
once play begins, so a void found this hand holds to its end. The hidden cards are dealt at
random among the hands, the pending passes and the kitty, in the numbers the view gives, and
never into a suit a seat is known to lack.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import accumulate, pairwise

from bots.worlds import state_of, unseen
from domain.fairness import Draw
from domain.game_state import GameState
from domain.turns import Play, left_of
from domain.variants.cancellation_hearts.passing import PASS_SIZE
from domain.variants.cancellation_hearts.table import CancellationHeartsTable, SentPass
from domain.variants.cancellation_hearts.tricks import (
    DECK,
    HEARTS,
    QUEEN,
    SUIT_OF,
    breaks_hearts,
    sort_hand,
)
from domain.variants.cancellation_hearts.view import CancellationHeartsView
from projections.views import View

BIT = {"S": 1, "H": 2, "D": 4, "C": 8}
ANY_SUIT = 15


class CancellationHeartsWorld:
    def sample(self, view: View, draw: Draw) -> GameState:
        table = view.table
        me = view.seat
        assert isinstance(table, CancellationHeartsView) and me is not None
        hand = view.hand or ()
        seats = range(view.seat_count)
        tricks = [trick.plays for trick in table.hand_tricks]
        if table.trick:
            tricks.append(table.trick)
        played = [play.card for plays in tricks for play in plays]
        held = _still_held(table.sent, tricks)
        pool = unseen(DECK, hand, table.my_pass or (), table.kitty or (), played, *held.values())
        others = [seat for seat in seats if seat != me]
        pending = [seat for seat, passed in enumerate(table.passed) if passed and seat != me]
        sizes = [view.hand_sizes[seat] - len(held.get(seat, ())) for seat in others]
        sizes += [PASS_SIZE] * len(pending)
        kitty_size = len(pool) - sum(sizes)  # taken by another seat, the kitty is still unseen
        suits = voids(tricks)
        accepted = [ANY_SUIT & ~suits.get(seat, 0) for seat in others]
        accepted += [ANY_SUIT] * (len(pending) + 1)
        dealt = deal_avoiding(pool, [*sizes, kitty_size], accepted, draw)
        hands = dict(zip(others, dealt[: len(others)], strict=True))
        passes = dict(zip(pending, dealt[len(others) : -1], strict=True))
        kitty = dealt[-1]
        taker = table.kitty_taker
        sampled = CancellationHeartsTable(
            options=table.options,
            seat_count=view.seat_count,
            left=tuple(seat.left for seat in view.seats),
            totals=view.scores,
            phase=table.phase,
            hand_number=table.hand_number,
            dealer=table.dealer,
            hands=tuple(
                hand if seat == me else sort_hand((*held.get(seat, ()), *hands[seat]))
                for seat in seats
            ),
            passes=self._passes(table, me, passes, view.seat_count),
            received=tuple((table.received or ()) if seat == me else () for seat in seats),
            sent=()
            if table.sent is None
            else tuple(table.sent if seat == me else None for seat in seats),
            kitty=kitty if taker is None else (),
            kitty_taker=taker,
            kitty_taken=() if taker is None else table.kitty or kitty,
            leader=table.leader if table.leader is not None else left_of(table.dealer, len(seats)),
            plays=table.trick,
            tricks=table.tricks_played,
            carry=table.carry,
            broken=table.hearts_broken,
            trick_points=table.trick_points,
            last_trick=table.last_trick,
            hand_tricks=table.hand_tricks,
            moon_seat=table.moon_seat,
        )
        return state_of(view, sampled, draw)

    @staticmethod
    def _passes(
        table: CancellationHeartsView, me: int, others: dict[int, tuple[str, ...]], count: int
    ) -> tuple[tuple[str, ...] | None, ...]:
        """The passes committed and not yet delivered (none outside the passing phase)."""
        if table.phase != "passing":
            return (None,) * count
        return tuple(table.my_pass if seat == me else others.get(seat) for seat in range(count))


def _still_held(
    sent: SentPass | None, tricks: Iterable[Sequence[Play]]
) -> dict[int, tuple[str, ...]]:
    """The cards of the seat's delivered pass that its receiver has not played since: whichever
    copy it played, it still holds the rest."""
    if sent is None:
        return {}
    kept = Counter(sent.cards)
    kept.subtract(play.card for plays in tricks for play in plays if play.seat == sent.to)
    return {sent.to: tuple(kept.elements())}


def voids(tricks: Iterable[Sequence[Play]]) -> dict[int, int]:
    """Seat -> the suits (``BIT`` flags) it has shown it holds none of this hand."""
    found: dict[int, int] = {}
    broken = False
    for index, plays in enumerate(tricks):
        lead = plays[0]
        led = SUIT_OF[lead.card]
        if index == 0 and (led == HEARTS or lead.card == QUEEN):
            found[lead.seat] = found.get(lead.seat, 0) | BIT["D"] | BIT["C"]
        elif led == HEARTS and not broken:
            found[lead.seat] = found.get(lead.seat, 0) | (ANY_SUIT & ~BIT[HEARTS])
        for play in plays[1:]:
            if SUIT_OF[play.card] != led:
                found[play.seat] = found.get(play.seat, 0) | BIT[led]
        broken = broken or any(breaks_hearts(play.card) for play in plays)
    return found


def deal_avoiding(
    pool: Sequence[str], sizes: Sequence[int], accepted: Sequence[int], draw: Draw
) -> list[tuple[str, ...]]:
    """``pool`` dealt at random: ``sizes[i]`` cards to holder i, each only of the suits
    ``accepted[i]`` (``BIT`` flags).

    Card by card, to a holder drawn in proportion to the room it has left, among those for
    which what is left can still be dealt: Hall's condition for every set of suits (its cards
    fit in the room of the holders that take any of them), kept as each set's slack. Were the
    view's voids ever impossible to meet, they are dropped rather than the decision failing.
    """
    cards = draw.shuffle(pool)
    masks = list(accepted)
    if all(mask == ANY_SUIT for mask in masks):
        return _in_order(cards, sizes)
    slack = _slack(pool, sizes, masks)
    if min(slack) < 0:
        return _in_order(cards, sizes)
    room = list(sizes)
    dealt: list[list[str]] = [[] for _ in sizes]
    for card in cards:
        bit = BIT[SUIT_OF[card]]
        open_ = [h for h, left in enumerate(room) if left and masks[h] & bit]
        while True:
            holder = _weighted(open_, room, draw)
            tight = _squeezed(bit, masks[holder])
            if all(slack[suits] > 0 for suits in tight):
                break
            open_.remove(holder)
        for suits in tight:
            slack[suits] -= 1
        room[holder] -= 1
        dealt[holder].append(card)
    return [tuple(cards) for cards in dealt]


def _in_order(cards: Sequence[str], sizes: Sequence[int]) -> list[tuple[str, ...]]:
    ends = list(accumulate(sizes, initial=0))
    return [tuple(cards[start:end]) for start, end in pairwise(ends)]


def _slack(pool: Sequence[str], sizes: Sequence[int], masks: Sequence[int]) -> list[int]:
    """For each set of suits (index 1..15; 0 unused), the room of the holders taking any of
    them less the cards of the pool in them."""
    counts = Counter(BIT[SUIT_OF[card]] for card in pool)
    slack = [0] * (ANY_SUIT + 1)
    for suits in range(1, ANY_SUIT + 1):
        fit = sum(size for size, mask in zip(sizes, masks, strict=True) if mask & suits)
        slack[suits] = fit - sum(n for bit, n in counts.items() if bit & suits)
    return slack


def _weighted(holders: Sequence[int], room: Sequence[int], draw: Draw) -> int:
    """One of ``holders``, drawn in proportion to its room."""
    at = draw.below(sum(room[h] for h in holders))
    for holder in holders:
        at -= room[holder]
        if at < 0:
            return holder
    raise AssertionError("the draw is below the total room")


@cache
def _squeezed(bit: int, mask: int) -> tuple[int, ...]:
    """The sets of suits whose slack a card of suit ``bit`` dealt to a holder taking ``mask``
    uses up: those the holder takes that leave the card's suit out (the room shrinks, their
    cards do not)."""
    return tuple(suits for suits in range(1, ANY_SUIT + 1) if not suits & bit and mask & suits)
