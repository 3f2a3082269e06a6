"""Open Hand (打扑克不盖被), RULES.md §3: five single-card tricks, everything face up."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

import msgspec

from domain.cards import CLIMBING_ORDER, check_card_code, rank, standard_deck, suit, without
from domain.choices import Choice
from domain.commands import Command, PlayCard
from domain.errors import RuleViolation
from domain.events import CardPlayed, Event, HandDealt, PlayerLeft, TrickWon
from domain.perspective import Perspective
from domain.turns import Play, TrickRecord, first_eligible, next_in_trick, right_of
from domain.variant import Outcome, ScoreRow, Turn, Variant

HAND_SIZE = 5
SUIT_ORDER = ("D", "C", "H", "S")  # ties of rank: spades highest, diamonds lowest


def strength(card: str) -> tuple[int, int]:
    """Rank first (3 low, 2 high), then suit."""
    return CLIMBING_ORDER.index(rank(card)), SUIT_ORDER.index(suit(card) or "")


class OpenHandOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    first_leader: Literal["cutter", "high_card"] = "cutter"
    tiebreak: Literal["shared", "playoff"] = "shared"


class FirstLeaderChosen(Event, frozen=True, tag="FirstLeaderChosen"):
    """Who leads the first trick; ``draws`` holds each seat's high-card draw (empty for cutter)."""

    seat: int
    method: str
    draws: tuple[str, ...]


class OpenHandTable(msgspec.Struct, frozen=True, kw_only=True):
    options: OpenHandOptions
    seat_count: int
    hands: tuple[tuple[str, ...], ...]
    left: tuple[bool, ...]
    points: tuple[int, ...]
    leader: int = 0
    plays: tuple[Play, ...] = ()
    tricks: tuple[TrickRecord, ...] = ()
    draws: tuple[str, ...] = ()
    dealt: bool = False

    def eligible(self, seat: int) -> bool:
        """Still at the table with a card to play."""
        return not self.left[seat] and bool(self.hands[seat])

    def current_leader(self) -> int | None:
        return first_eligible(self.leader, self.seat_count, self.eligible)

    def awaited(self) -> int | None:
        if not self.dealt:
            return None
        if not self.plays:
            return self.current_leader()
        return next_in_trick(self.plays[0].seat, self.plays, self.seat_count, self.eligible)


class OpenHandView(msgspec.Struct, frozen=True, kw_only=True):
    """Everything on an Open Hand table that every seat sees."""

    leader: int | None
    trick: tuple[Play, ...]
    tricks: tuple[TrickRecord, ...]
    played: tuple[tuple[str, ...], ...]
    first_leader_draws: tuple[str, ...]
    options: OpenHandOptions


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

    def setup(self, options: OpenHandOptions, seat_count: int) -> OpenHandTable:
        return OpenHandTable(
            options=options,
            seat_count=seat_count,
            hands=((),) * seat_count,
            left=(False,) * seat_count,
            points=(0,) * seat_count,
        )

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
        if table.awaited() != seat:
            raise RuleViolation("not_your_turn", "it is not your turn to play")
        if card not in table.hands[seat]:
            raise RuleViolation("card_not_in_hand", f"{card} is not in your hand")
        played = CardPlayed(seat=seat, card=card)
        return [played, *self._complete_trick(self.evolve(table, played))]

    def after_leave(self, table: OpenHandTable, seat: int, turn: Turn) -> list[Event]:
        return self._complete_trick(table) if table.plays else []

    def _complete_trick(self, table: OpenHandTable) -> list[Event]:
        """The trick's result once every seat that can play has played."""
        if not table.plays or table.awaited() is not None:
            return []
        best = max(table.plays, key=lambda play: strength(play.card))
        cards = tuple(play.card for play in table.plays)
        return [TrickWon(trick=len(table.tricks) + 1, seat=best.seat, cards=cards, points=1)]

    def evolve(self, table: OpenHandTable, event: Event) -> OpenHandTable:
        replace = msgspec.structs.replace
        match event:
            case HandDealt():
                dealt = tuple(secret.unwrap() for secret in event.hands)
                return replace(table, hands=dealt, dealt=True)
            case FirstLeaderChosen():
                return replace(table, leader=event.seat, draws=event.draws)
            case CardPlayed():
                remaining = list(table.hands)
                remaining[event.seat] = without(remaining[event.seat], [event.card])
                play = Play(seat=event.seat, card=event.card)
                return replace(table, hands=tuple(remaining), plays=(*table.plays, play))
            case TrickWon():
                record = TrickRecord(
                    number=event.trick,
                    leader=table.plays[0].seat,
                    plays=table.plays,
                    winner=event.seat,
                )
                points = list(table.points)
                points[event.seat] += event.points
                return replace(
                    table,
                    plays=(),
                    tricks=(*table.tricks, record),
                    points=tuple(points),
                    leader=event.seat,
                )
            case PlayerLeft():
                left = list(table.left)
                left[event.seat] = True
                return replace(table, left=tuple(left))
        return table

    def legal_moves(self, table: OpenHandTable, seat: int) -> list[Command | Choice]:
        if table.awaited() != seat:
            return []
        return [PlayCard(card=card) for card in sorted(table.hands[seat], key=strength)]

    def to_act(self, table: OpenHandTable) -> tuple[int, ...]:
        awaited = table.awaited()
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
        if not table.dealt or table.awaited() is not None or table.plays:
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

    def public_table(self, table: OpenHandTable, perspective: Perspective) -> msgspec.Struct:
        played: list[list[str]] = [[] for _ in range(table.seat_count)]
        for trick in table.tricks:
            for play in trick.plays:
                played[play.seat].append(play.card)
        for play in table.plays:
            played[play.seat].append(play.card)
        return OpenHandView(
            leader=table.current_leader() if table.dealt else None,
            trick=table.plays,
            tricks=table.tricks,
            played=tuple(tuple(cards) for cards in played),
            first_leader_draws=table.draws,
            options=table.options,
        )
