"""Open Hand on ints (RULES.md §3): a card is its strength (rank, then suit: 0 is 3D, 51 is 2S),
so the highest card of a trick is the largest int."""

from __future__ import annotations

from bots.contract import shares_above
from bots.ismcts import Dice
from bots.worlds.open_hand import leader_of
from domain.cards import standard_deck
from domain.commands import Command, PlayCard
from domain.variants.open_hand.rules import strength
from domain.variants.open_hand.view import OpenHandView
from projections.views import View

CODES: tuple[str, ...] = tuple(sorted(standard_deck(), key=strength))
INDEX: dict[str, int] = {card: index for index, card in enumerate(CODES)}


class OpenHandPosition:
    """A whole Open Hand table: every hand (sorted), the seats still to play the trick in
    order, the best card on it and its seat, points, and who is still at the table."""

    __slots__ = ("best", "hands", "last", "leading", "points", "queue", "seated", "winner")

    def __init__(
        self,
        hands: list[list[int]],
        seated: list[int],
        points: list[int],
        leader: int,
        plays: list[tuple[int, int]],
    ) -> None:
        self.hands = hands
        self.seated = seated
        self.points = points
        self.best = max((card for _, card in plays), default=-1)
        self.winner = next((seat for seat, card in plays if card == self.best), -1)
        self.leading = not plays
        self.last = -1
        played = {seat for seat, _ in plays}
        self.queue = [s for s in self._rotation(leader) if s not in played]
        if plays and not self.queue:  # never the case in a view: a full trick is scored at once
            self._score()

    def _rotation(self, start: int) -> list[int]:
        count, hands = len(self.hands), self.hands
        return [
            s for s in ((start + k) % count for k in range(count)) if s in self.seated and hands[s]
        ]

    def _score(self) -> None:
        self.points[self.winner] += 1
        self.queue = self._rotation(self.winner)
        self.best, self.winner, self.leading = -1, -1, True

    def to_move(self) -> int:
        return self.queue[0] if self.queue else -1

    def moves(self) -> list[int]:
        return list(self.hands[self.queue[0]])

    def play(self, move: int) -> None:
        seat = self.queue.pop(0)
        self.hands[seat].remove(move)
        self.last = move
        self.leading = False
        if move > self.best:
            self.best, self.winner = move, seat
        if not self.queue:
            self._score()

    def seen(self) -> int:
        """Every card is played face up."""
        return self.last

    def rule(self) -> int:
        """Level 2 (``bots.rule_based.open_hand``): lead the lowest; follow with the cheapest
        card that beats the table, else the lowest."""
        hand = self.hands[self.queue[0]]
        if self.leading:
            return hand[0]
        best = self.best
        for card in hand:
            if card > best:
                return card
        return hand[0]

    def values(self) -> list[float]:
        return shares_above(self.points, self.seated)


def _pick(pool: list[int], count: int, dice: Dice) -> list[int]:
    """``count`` cards of ``pool`` at random (a partial Fisher-Yates)."""
    pool = pool[:]
    last = len(pool) - 1
    for i in range(min(count, last)):
        j = i + dice.below(last - i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:count]


class OpenHandWorlds:
    """The worlds of one view: the cards the seat has not seen, dealt at random to the others."""

    def __init__(self, view: View) -> None:
        table = view.table
        assert isinstance(table, OpenHandView) and view.seat is not None and view.hand is not None
        seen = {INDEX[card] for card in view.hand}
        seen.update(INDEX[card] for cards in table.played for card in cards)
        seen.update(INDEX[card] for card in table.first_leader_draws)
        self.pool = [card for card in range(len(CODES)) if card not in seen]
        self.seat = view.seat
        self.own = sorted(INDEX[card] for card in view.hand)
        self.sizes = view.hand_sizes
        self.dealt = sum(size for seat, size in enumerate(self.sizes) if seat != view.seat)
        self.leader = leader_of(table)
        self.seated = [seat.seat for seat in view.seats if not seat.left]
        self.points = list(view.scores)
        self.plays = [(play.seat, INDEX[play.card]) for play in table.trick]

    def sample(self, dice: Dice) -> OpenHandPosition:
        picked = _pick(self.pool, self.dealt, dice)
        hands: list[list[int]] = []
        taken = 0
        for seat, size in enumerate(self.sizes):
            if seat == self.seat:
                hands.append(self.own[:])
            else:
                hands.append(sorted(picked[taken : taken + size]))
                taken += size
        return OpenHandPosition(hands, self.seated, self.points[:], self.leader, self.plays)


class OpenHandSimulator:
    """Open Hand for ``bots.ismcts``."""

    def worlds(self, view: View) -> OpenHandWorlds:
        return OpenHandWorlds(view)

    def command(self, view: View, move: int) -> Command:
        return PlayCard(card=CODES[move])

    def budget(self, view: View, iterations: int) -> int:
        return iterations
