"""What a Cancellation Hearts seat can read off its view, and the odds it builds on it.

The view shows the seat's hand, the trick on the table, the last trick, the carry pile, the
points each seat has taken this hand and (for its taker) the kitty; earlier tricks are gone.
So "unseen" below means every copy the seat cannot see now, whether still held by someone or
already played: an unseen copy sits in a given seat's hand with the chance that seat's cards
make of all unseen cards. The odds are rough on purpose: a rule of thumb, not a search.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from domain.variants.cancellation_hearts.tricks import (
    ALL_POINTS,
    DECK_SIZE,
    POINTS_OF,
    QUEEN,
    RANK_OF,
    SUIT_OF,
    points,
    resolve,
)
from domain.variants.cancellation_hearts.view import CancellationHeartsView
from projections.views import View

COPIES = 2  # two decks: every card twice
SUIT_CARDS: dict[str, tuple[str, ...]] = {
    suit: tuple(card for card in RANK_OF if SUIT_OF[card] == suit) for suit in "SHDC"
}
# How likely a later seat holding a card that would overtake (or cancel) mine plays it: players
# duck when they can. Tuned on duplicate deals against earlier versions of this player.
PLAYS_HIGHER = 0.3
PLAYS_TWIN = 0.3
DUMPS_POINTS = 3.0  # a seat out of the suit led throws points more often than an average card
DROPS_QUEEN = 0.7  # a seat holding a queen of spades under a higher spade than hers drops her
QUEEN_RANK = RANK_OF[QUEEN]
KITTY_POINTS_PER_CARD = ALL_POINTS / DECK_SIZE  # a kitty card is any card: half a point


@dataclass(frozen=True)
class Reading:
    """The facts of one decision, read once from the view."""

    seat: int
    hand: tuple[str, ...]
    table: CancellationHeartsView
    seen: Counter[str]  # copies the seat sees: its hand, the trick, the last trick, the carry
    unwon: Counter[str]  # of those, the copies no trick has been won with (the last one has)
    unseen: int  # cards the seat cannot see (in other hands, the kitty, or played before)
    unseen_above: dict[str, int]  # card -> unseen copies of higher cards of its suit
    unseen_in_suit: dict[str, int]
    later_cards: int  # cards held by the seats still to play to this trick after this seat
    later_seats: int
    points_out: int  # points in the other hands and the untaken kitty
    cards_out: int  # cards in the other hands and the untaken kitty

    @property
    def led_suit(self) -> str | None:
        return SUIT_OF[self.table.trick[0].card] if self.table.trick else None

    def unseen_copies(self, card: str) -> int:
        return max(0, COPIES - self.seen[card])

    def queens_out(self) -> int:
        """Queens of spades that may still be in another hand or the kitty (at most: earlier
        tricks are gone, but the points taken tell that a queen fell once they pass what the
        hearts not in sight could make)."""
        taken = sum(self.table.trick_points)
        hearts_won_at_most = sum(COPIES - self.unwon[card] for card in SUIT_CARDS["H"])
        fallen = max(0, -(-(taken - hearts_won_at_most) // POINTS_OF[QUEEN]))
        return max(0, COPIES - self.unwon[QUEEN] - fallen)

    def mean_points_out(self) -> float:
        """The points of an average card in another hand (or the kitty)."""
        return self.points_out / self.cards_out if self.cards_out else 0.0

    def overtaken(self, card: str) -> float:
        """The chance a later seat plays a higher card of ``card``'s suit."""
        return 1.0 - (1.0 - PLAYS_HIGHER * self._later_share()) ** self.unseen_above[card]

    def cancelled_later(self, card: str) -> float:
        """The chance a later seat plays the twin of ``card`` (cancelling it)."""
        return PLAYS_TWIN * self._later_share() * self.unseen_copies(card)

    def _later_share(self) -> float:
        return min(1.0, self.later_cards / self.unseen) if self.unseen else 0.0

    def win_chance(self, card: str) -> float:
        """The chance that playing ``card`` now wins this trick (or the one it leads)."""
        plays = [play.card for play in self.table.trick] + [card]
        _, best = resolve(plays)
        mine = len(plays) - 1
        if best == mine:
            return (1.0 - self.overtaken(card)) * (1.0 - self.cancelled_later(card))
        if best is None or SUIT_OF[card] != SUIT_OF[plays[0]] or plays.count(card) > 1:
            return 0.0
        # Not winning now: only if the winning card is cancelled and nothing else beats mine.
        winner = plays[best]
        between = [
            other
            for other in plays
            if SUIT_OF[other] == SUIT_OF[card]
            and plays.count(other) == 1
            and RANK_OF[card] < RANK_OF[other] < RANK_OF[winner]
        ]
        if between:
            return 0.0
        return self.cancelled_later(winner) * (1.0 - self.overtaken(card))

    def stake(self, card: str) -> float:
        """The points the winner of this trick can expect to take if ``card`` is played."""
        on_table = points([play.card for play in self.table.trick]) + POINTS_OF[card]
        kitty = (
            self.table.kitty_size * KITTY_POINTS_PER_CARD if self.table.kitty_taker is None else 0.0
        )
        return (
            on_table
            + points(self.table.carry)
            + kitty
            + self._later_discards(card)
            + self._queen_dropped(card)
        )

    def _queen_dropped(self, card: str) -> float:
        """Points of a queen of spades a later seat may drop under ``card`` (a higher spade)."""
        if SUIT_OF[card] != "S" or (self.led_suit or "S") != "S" or RANK_OF[card] <= QUEEN_RANK:
            return 0.0
        return POINTS_OF[QUEEN] * self.queens_out() * self._later_share() * DROPS_QUEEN

    def _later_discards(self, card: str) -> float:
        """Points the later seats may throw on, being out of the suit led."""
        if self.later_seats == 0 or self.unseen == 0:
            return 0.0
        # Of the suit's unseen copies, those still held: as many as held cards are of unseen.
        held_in_suit = (
            self.unseen_in_suit[self.led_suit or SUIT_OF[card]] * self.cards_out / self.unseen
        )
        each = self.later_cards / self.later_seats
        void = (1.0 - min(1.0, each / self.cards_out)) ** held_in_suit if self.cards_out else 1.0
        return self.later_seats * void * self.mean_points_out() * DUMPS_POINTS


def read(view: View) -> Reading:
    table = view.table
    assert isinstance(table, CancellationHeartsView), "a Cancellation Hearts view"
    seat = view.seat
    assert seat is not None, "a bot sits at a seat"
    hand = tuple(view.hand or ())
    unwon = Counter(hand)
    unwon.update(play.card for play in table.trick)
    unwon.update(table.carry)
    unwon.update(table.kitty or ())
    seen = Counter(unwon)
    last = table.last_trick
    if last is not None and last.winner is not None:  # a winnerless one is in the carry
        seen.update(play.card for play in last.plays)
    unseen_above: dict[str, int] = {}
    unseen_in_suit: dict[str, int] = {}
    for suit, cards in SUIT_CARDS.items():
        above = 0
        for card in reversed(cards):  # from the ace down
            unseen_above[card] = above
            above += max(0, COPIES - seen[card])
        unseen_in_suit[suit] = above
    later = _later_seats(view, table, seat)
    others = [
        size
        for other, size in enumerate(view.hand_sizes)
        if other != seat and not view.seats[other].left
    ]
    untaken_kitty = table.kitty_size if table.kitty_taker is None else 0
    taken = sum(table.trick_points) + points(unwon.elements())
    return Reading(
        seat=seat,
        hand=hand,
        table=table,
        seen=seen,
        unwon=unwon,
        unseen=DECK_SIZE - sum(seen.values()),
        unseen_above=unseen_above,
        unseen_in_suit=unseen_in_suit,
        later_cards=sum(view.hand_sizes[other] for other in later),
        later_seats=len(later),
        points_out=max(0, ALL_POINTS - taken),
        cards_out=sum(others) + untaken_kitty,
    )


def _later_seats(view: View, table: CancellationHeartsView, seat: int) -> list[int]:
    """The seats that still play to this trick after ``seat`` (every other seat holding a
    card when ``seat`` leads)."""
    played = {play.seat for play in table.trick}
    count = view.seat_count
    return [
        other
        for other in ((seat + step) % count for step in range(1, count))
        if other not in played and not view.seats[other].left and view.hand_sizes[other] > 0
    ]
