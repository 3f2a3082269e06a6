"""High Card: everyone is dealt a few cards and plays one; the highest card wins the one trick.

Ranks as in bridge (2 low, A high), then suits S > H > D > C. A seat that leaves is skipped; a
card it had played stays on the table but cannot win (a seat that left never wins).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import msgspec

from domain.cards import RANKS, SUITS, check_card_code, standard_deck
from domain.cards import REFUSALS as CARD_REFUSALS
from domain.choices import Choice
from domain.commands import Command, PlayCard
from domain.errors import Failure
from domain.events import CardPlayed, Event, HandDealt, PlayerLeft, TrickWon
from domain.turns import REFUSALS as TURN_REFUSALS
from domain.turns import check_play
from domain.variant import Outcome, ScoreRow, Turn, Variant
from tests.conformance.tiny_variant import table as tables
from tests.conformance.tiny_variant.messages import HighCardOptions
from tests.conformance.tiny_variant.table import HighCardTable
from tests.conformance.tiny_variant.view import HighCardView, table_view


def strength(card: str) -> tuple[int, int]:
    return RANKS.index(card[:-1]), -SUITS.index(card[-1])


class HighCard(Variant[HighCardTable, HighCardOptions]):
    id: ClassVar[str] = "high-card"
    name: ClassVar[str] = "High Card"
    native_name: ClassVar[str] = "High Card"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    options_type: ClassVar[type[msgspec.Struct]] = HighCardOptions
    commands: ClassVar[tuple[type[Command], ...]] = (PlayCard,)
    events: ClassVar[tuple[type[Event], ...]] = (HandDealt, CardPlayed, TrickWon, PlayerLeft)
    refusals: ClassVar[Mapping[str, Failure]] = {
        **CARD_REFUSALS,
        **TURN_REFUSALS,
    }

    def setup(self, options: HighCardOptions, seat_count: int) -> HighCardTable:
        return tables.setup(options, seat_count)

    def start(self, table: HighCardTable, turn: Turn) -> list[Event]:
        deck = turn.stream().shuffle("deal/1", standard_deck())
        size = table.options.hand_size
        hands = [deck[seat * size : (seat + 1) * size] for seat in range(table.seat_count)]
        return [
            HandDealt(
                hand=1,
                dealer=0,
                hands=tuple(turn.seal(seat, hand) for seat, hand in enumerate(hands)),
                rest=turn.seal(None, deck[table.seat_count * size :]),
            )
        ]

    def decide(self, table: HighCardTable, seat: int, command: Command, turn: Turn) -> list[Event]:
        assert isinstance(command, PlayCard)
        card = check_card_code(command.card)
        check_play(table.awaited(), seat, table.hands[seat], card)
        played = CardPlayed(seat=seat, card=card)
        return [played, *self._won(tables.evolve(table, played))]

    def after_leave(self, table: HighCardTable, seat: int, turn: Turn) -> list[Event]:
        return self._won(table)

    def _won(self, table: HighCardTable) -> list[Event]:
        if not table.plays or table.awaited() is not None:
            return []
        seated = [play for play in table.plays if not table.left[play.seat]]
        best = max(seated, key=lambda play: strength(play.card))
        cards = tuple(play.card for play in table.plays)
        return [TrickWon(trick=1, seat=best.seat, cards=cards, points=1)]

    def evolve(self, table: HighCardTable, event: Event) -> HighCardTable:
        return tables.evolve(table, event)

    def legal_moves(self, table: HighCardTable, seat: int) -> list[Command | Choice]:
        if table.awaited() != seat:
            return []
        return [PlayCard(card=card) for card in sorted(table.hands[seat], key=strength)]

    def seated(self, table: HighCardTable) -> tuple[int, ...]:
        return tuple(seat for seat in range(table.seat_count) if not table.left[seat])

    def to_act(self, table: HighCardTable) -> tuple[int, ...]:
        awaited = table.awaited()
        return () if awaited is None else (awaited,)

    def hand(self, table: HighCardTable, seat: int) -> tuple[str, ...]:
        return table.hands[seat]

    def hand_sizes(self, table: HighCardTable) -> tuple[int, ...]:
        return tuple(len(hand) for hand in table.hands)

    def scores(self, table: HighCardTable) -> tuple[int, ...]:
        return tuple(int(seat == table.winner) for seat in range(table.seat_count))

    def score_rows(self, table: HighCardTable) -> Sequence[ScoreRow]:
        won = table.winner is not None
        return [ScoreRow(label="trick 1", points=self.scores(table))] if won else []

    def result(self, table: HighCardTable) -> Outcome | None:
        if table.winner is None:
            return None
        return Outcome(scores=self.scores(table), winners=(table.winner,))

    def table_view(self, table: HighCardTable) -> HighCardView:
        return table_view(table)
