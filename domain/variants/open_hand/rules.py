"""Open Hand (打扑克不盖被), RULES.md §3: five single-card tricks, everything face up."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import msgspec

from domain.cards import CLIMBING_INDEX, check_card_code, rank, standard_deck, suit
from domain.cards import REFUSALS as CARD_REFUSALS
from domain.choices import Choice
from domain.commands import Command, PlayCard
from domain.errors import Failure
from domain.events import CardPlayed, Event, HandDealt, PlayerLeft, TrickWon
from domain.perspective import Perspective
from domain.turns import REFUSALS as TURN_REFUSALS
from domain.turns import check_play, right_of
from domain.variant import Outcome, ScoreRow, Turn, Variant
from domain.variants.open_hand import table as tables
from domain.variants.open_hand.messages import FirstLeaderChosen, OpenHandOptions
from domain.variants.open_hand.table import OpenHandTable
from domain.variants.open_hand.view import OpenHandView, table_view

HAND_SIZE = 5
SUIT_ORDER = ("D", "C", "H", "S")  # ties of rank: spades highest, diamonds lowest


def _ranked(card: str) -> tuple[int, int]:
    return CLIMBING_INDEX[rank(card)], SUIT_ORDER.index(suit(card) or "")


_STRENGTHS = {card: _ranked(card) for card in standard_deck()}  # looked up: every view sorts


def strength(card: str) -> tuple[int, int]:
    """Rank first (3 low, 2 high), then suit."""
    return _STRENGTHS[card]


class OpenHand(Variant[OpenHandTable, OpenHandOptions]):
    id: ClassVar[str] = "open-hand"
    name: ClassVar[str] = "Open Hand"
    native_name: ClassVar[str] = "打扑克不盖被"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 8
    options_type: ClassVar[type[msgspec.Struct]] = OpenHandOptions
    commands: ClassVar[tuple[type[Command], ...]] = (PlayCard,)
    events: ClassVar[tuple[type[Event], ...]] = (
        HandDealt,
        FirstLeaderChosen,
        CardPlayed,
        TrickWon,
        PlayerLeft,
    )
    refusals: ClassVar[Mapping[str, Failure]] = {
        **CARD_REFUSALS,
        **TURN_REFUSALS,
    }

    def setup(self, options: OpenHandOptions, seat_count: int) -> OpenHandTable:
        return tables.setup(options, seat_count)

    def start(self, table: OpenHandTable, turn: Turn) -> list[Event]:
        rng = turn.stream()
        deck = rng.shuffle("deal/1", standard_deck())
        count = table.seat_count
        hands = [deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(count)]
        rest = deck[count * HAND_SIZE :]
        dealt = HandDealt(
            hand=1,
            dealer=0,
            hands=tuple(turn.seal(seat, hand) for seat, hand in enumerate(hands)),
            rest=turn.seal(None, rest),
        )
        if table.options.first_leader == "cutter":
            leader = FirstLeaderChosen(seat=right_of(0, count), method="cutter", draws=())
        else:
            draw = rng.draw("first-leader")
            pile = list(rest)
            draws = tuple(pile.pop(draw.below(len(pile))) for _ in range(count))
            best = max(range(count), key=lambda seat: strength(draws[seat]))
            leader = FirstLeaderChosen(seat=best, method="high_card", draws=draws)
        return [dealt, leader]

    def decide(self, table: OpenHandTable, seat: int, command: Command, turn: Turn) -> list[Event]:
        assert isinstance(command, PlayCard)
        card = check_card_code(command.card)
        check_play(table.awaited, seat, table.hands[seat], card)
        played = CardPlayed(seat=seat, card=card)
        return [played, *self._complete_trick(tables.evolve(table, played))]

    def after_leave(self, table: OpenHandTable, seat: int, turn: Turn) -> list[Event]:
        return self._complete_trick(table) if table.plays else []

    def _complete_trick(self, table: OpenHandTable) -> list[Event]:
        """The trick's result once every seat that can play has played."""
        if not table.plays or table.awaited is not None:
            return []
        best = max(table.plays, key=lambda play: strength(play.card))
        cards = tuple(play.card for play in table.plays)
        return [TrickWon(trick=len(table.tricks) + 1, seat=best.seat, cards=cards, points=1)]

    def evolve(self, table: OpenHandTable, event: Event) -> OpenHandTable:
        return tables.evolve(table, event)

    def legal_moves(self, table: OpenHandTable, seat: int) -> list[Command | Choice]:
        if table.awaited != seat:
            return []
        return [PlayCard(card=card) for card in sorted(table.hands[seat], key=strength)]

    def to_act(self, table: OpenHandTable) -> tuple[int, ...]:
        awaited = table.awaited
        return () if awaited is None else (awaited,)

    def hand(self, table: OpenHandTable, seat: int) -> tuple[str, ...]:
        return table.hands[seat]

    def hand_sizes(self, table: OpenHandTable) -> tuple[int, ...]:
        return tuple(len(hand) for hand in table.hands)

    def scores(self, table: OpenHandTable) -> tuple[int, ...]:
        return table.points

    def score_rows(self, table: OpenHandTable) -> Sequence[ScoreRow]:
        rows = []
        for trick in table.tricks:
            points = tuple(int(seat == trick.winner) for seat in range(table.seat_count))
            rows.append(ScoreRow(label=f"trick {trick.number}", points=points))
        return rows

    def seated(self, table: OpenHandTable) -> tuple[int, ...]:
        return tuple(seat for seat in range(table.seat_count) if not table.left[seat])

    def result(self, table: OpenHandTable) -> Outcome | None:
        if not table.dealt or table.awaited is not None or table.plays:
            return None
        # Judgement call open-hand/leaver-never-wins: a seat that left keeps its points on the
        # scoreboard but the winners are the most points among the seats still at the table.
        seated = self.seated(table)
        best = max(table.points[seat] for seat in seated)
        tied = tuple(seat for seat in seated if table.points[seat] == best)
        # Judgement call open-hand/playoff-without-cards: a playoff is among tied players still
        # at the table who hold a card. Every such player has played all five cards when the
        # last trick ends, so the playoff has nobody to compare and the tie stands, as RULES.md
        # §3 says for tied players without cards.
        return Outcome(scores=table.points, winners=tied)

    def table_view(self, table: OpenHandTable) -> OpenHandView:
        return table_view(table)

    def public_table(self, table: OpenHandTable, perspective: Perspective) -> OpenHandView:
        """Everything is face up: the view holds no mark to open (one would fail to encode),
        so every perspective is served it as built."""
        return table_view(table)
