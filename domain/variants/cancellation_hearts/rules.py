"""Cancellation Hearts (RULES.md §4): hearts for 6–11 players with two decks; twins cancel.

Judgement calls (named in docs/rules/cancellation-hearts.md, each cited by a test):

- ``cancellation-hearts/deal-to-seated``: a seat that left is skipped everywhere. Each hand is
  dealt to the seats still at the table (``floor(104/m)`` each, the kitty ``104 mod m``); a seat
  that left gets no cards.
- ``cancellation-hearts/pass-among-seated``: passing happens among the seats still at the table:
  each passes to the next such seat to the left (odd hands) or right (even hands).
- ``cancellation-hearts/leaver-pass-returns``: a seat leaving before delivery takes no part: a
  pass it had committed goes back to its hand, and whoever would have received from it receives
  from the next seat still at the table instead, so every passer still receives three cards.
- ``cancellation-hearts/leaver-card-stays``: a card on the table stays in its trick when its
  player leaves; a seat that left can still win that trick (and its points), but leads nothing:
  the lead passes to the next seat at the table.
- ``cancellation-hearts/leaver-moon-subtracts``: a shooter who leaves before choosing gets
  ``subtract``.
- ``cancellation-hearts/dealer-rotates-by-hand``: the dealer of hand h is seat ``(h-1) mod n``,
  whether or not that seat is still at the table (the leader is the next seat at the table).
- ``cancellation-hearts/kitty-points-at-scoring``: the kitty's points count for its taker when
  the hand is scored (never shown in the public trick points).
- ``cancellation-hearts/target-checked-after-hand``: the match ends after the hand in which a
  total reaches the target, even if several do; the lowest total among seats still at the table
  wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import msgspec

from domain.cards import REFUSALS as CARD_REFUSALS
from domain.cards import SUIT_SYMBOLS, check_card_code, describe
from domain.choices import Choice
from domain.commands import Command, PlayCard
from domain.errors import Failure, RuleViolation
from domain.events import CardPlayed, Event, HandDealt, PlayerLeft
from domain.turns import REFUSALS as TURN_REFUSALS
from domain.turns import check_play
from domain.variant import Outcome, ScoreRow, Turn, Variant
from domain.variants.cancellation_hearts import table as tables
from domain.variants.cancellation_hearts.messages import (
    CancellationHeartsOptions,
    CardsPassed,
    ChooseMoon,
    MoonChoice,
    MoonShot,
    PassCards,
    PassesDelivered,
    PenaltiesScored,
    TrickResolved,
)
from domain.variants.cancellation_hearts.passing import (
    decide_pass,
    deliver_if_ready,
    legal_passes,
)
from domain.variants.cancellation_hearts.table import CancellationHeartsTable
from domain.variants.cancellation_hearts.tricks import (
    DECK,
    DECK_SIZE,
    QUEEN,
    SUIT_OF,
    follows,
    hand_points,
    leads,
    moon_shooter,
    points,
    resolve,
    sort_hand,
)
from domain.variants.cancellation_hearts.view import CancellationHeartsView, table_view

Table = CancellationHeartsTable
_replace = msgspec.structs.replace


class CancellationHearts(Variant[CancellationHeartsTable, CancellationHeartsOptions]):
    id: ClassVar[str] = "cancellation-hearts"
    name: ClassVar[str] = "Cancellation Hearts"
    native_name: ClassVar[str] = "Cancellation Hearts"
    min_seats: ClassVar[int] = 6
    max_seats: ClassVar[int] = 11
    options_type: ClassVar[type[msgspec.Struct]] = CancellationHeartsOptions
    commands: ClassVar[tuple[type[Command], ...]] = (PassCards, PlayCard, ChooseMoon)
    events: ClassVar[tuple[type[Event], ...]] = (
        HandDealt,
        CardsPassed,
        PassesDelivered,
        CardPlayed,
        TrickResolved,
        MoonShot,
        PenaltiesScored,
        PlayerLeft,
    )
    lower_score_wins: ClassVar[bool] = True
    refusals: ClassVar[Mapping[str, Failure]] = {
        **CARD_REFUSALS,
        **TURN_REFUSALS,
        "no_moon_choice": Failure.CONFLICT,
        "not_passing": Failure.CONFLICT,
        "already_passed": Failure.CONFLICT,
        "wrong_pass_size": Failure.INVALID,
        "passing_not_done": Failure.CONFLICT,
        "moon_choice_pending": Failure.CONFLICT,
        "must_follow_suit": Failure.CONFLICT,
        "first_lead_restricted": Failure.CONFLICT,
        "hearts_not_broken": Failure.CONFLICT,
    }

    # --- lifecycle ------------------------------------------------------------------------------

    def setup(self, options: CancellationHeartsOptions, seat_count: int) -> Table:
        return tables.setup(options, seat_count)

    def start(self, table: Table, turn: Turn) -> list[Event]:
        return [self._deal(table, 1, turn)]

    def _deal(self, table: Table, hand: int, turn: Turn) -> HandDealt:
        seated = table.seated()
        each = DECK_SIZE // len(seated)
        deck = turn.stream().shuffle(f"deal/{hand}", DECK)
        hands: list[tuple[str, ...]] = [()] * table.seat_count
        for index, seat in enumerate(seated):
            hands[seat] = sort_hand(deck[index * each : (index + 1) * each])
        return HandDealt(
            hand=hand,
            dealer=(hand - 1) % table.seat_count,
            hands=tuple(turn.seal(seat, cards) for seat, cards in enumerate(hands)),
            rest=turn.seal(None, deck[len(seated) * each :]),
        )

    def decide(self, table: Table, seat: int, command: Command, turn: Turn) -> list[Event]:
        if isinstance(command, PassCards):
            return decide_pass(table, seat, command, turn)
        if isinstance(command, PlayCard):
            return self._play(table, seat, command, turn)
        assert isinstance(command, ChooseMoon)
        if table.phase != "moon" or table.moon_seat != seat:
            raise RuleViolation("no_moon_choice", "you have no moon to choose a score for")
        return self._scored(table, command.choice, turn)

    def after_leave(self, table: Table, seat: int, turn: Turn) -> list[Event]:
        if table.phase == "passing":
            return deliver_if_ready(table, turn)
        if table.phase == "moon" and table.moon_seat == seat:
            return self._scored(table, "subtract", turn)
        if table.phase == "playing":
            return self._settle(table, turn)
        return []

    # --- play -----------------------------------------------------------------------------------

    def _play(self, table: Table, seat: int, command: PlayCard, turn: Turn) -> list[Event]:
        card = check_card_code(command.card)
        if table.phase == "passing":
            raise RuleViolation("passing_not_done", "every player passes 3 cards before play")
        if table.phase == "moon":
            raise RuleViolation("moon_choice_pending", "the moon's score is being chosen")
        hand = table.hands[seat]
        check_play(table.awaited(), seat, hand, card)
        self._check_allowed(table, hand, card)
        played = CardPlayed(seat=seat, card=card)
        return [played, *self._settle(tables.evolve(table, played), turn)]

    def _allowed(self, table: Table, hand: tuple[str, ...]) -> tuple[str, ...]:
        if table.plays:
            return follows(hand, SUIT_OF[table.plays[0].card])
        return leads(hand, first_trick=table.tricks == 0, broken=table.broken)

    def _check_allowed(self, table: Table, hand: tuple[str, ...], card: str) -> None:
        if card in self._allowed(table, hand):
            return
        if table.plays:
            led = SUIT_OF[table.plays[0].card]
            raise RuleViolation(
                "must_follow_suit", f"you hold {SUIT_SYMBOLS[led]}: follow the suit led"
            )
        if table.tricks == 0:
            raise RuleViolation(
                "first_lead_restricted",
                f"the first lead may not be a heart or {describe(QUEEN)} while you hold another"
                " card",
            )
        raise RuleViolation(
            "hearts_not_broken", "hearts may not be led until a heart or Q♠ has been played"
        )

    def _settle(self, table: Table, turn: Turn) -> list[Event]:
        """Resolve a complete trick and, after the last one, score the hand."""
        events: list[Event] = []
        if table.plays and table.awaited() is None:
            resolved = self._resolve(table, turn)
            events.append(resolved)
            table = tables.evolve(table, resolved)
        if not table.plays and table.out_of_cards():
            events += self._score(table, turn)
        return events

    def _resolve(self, table: Table, turn: Turn) -> TrickResolved:
        cards = tuple(play.card for play in table.plays)
        cancelled, best = resolve(cards)
        resolved = TrickResolved(
            hand=table.hand_number,
            trick=table.tricks + 1,
            leader=table.plays[0].seat,
            cards=cards,
            cancelled=cancelled,
            winner=None,
        )
        pile = table.carry + cards
        last = table.out_of_cards()
        if best is None:
            if last:
                return _replace(resolved, discarded=pile, last=True)
            return _replace(resolved, carried=pile)
        winner = table.plays[best].seat
        kitty = turn.seal(winner, table.kitty) if table.kitty else None
        return _replace(
            resolved, winner=winner, collected=pile, kitty=kitty, points=points(pile), last=last
        )

    # --- scoring --------------------------------------------------------------------------------

    def _taken(self, table: Table) -> list[int]:
        taken = list(table.trick_points)
        if table.kitty_taker is not None:
            taken[table.kitty_taker] += points(table.kitty_taken)
        return taken

    def _score(self, table: Table, turn: Turn) -> list[Event]:
        shooter = moon_shooter(self._taken(table))
        rule = table.options.moon
        if shooter is not None and rule == "choose":
            if table.at_table(shooter):
                return [MoonShot(hand=table.hand_number, seat=shooter)]
            return self._scored(table, "subtract", turn)
        return self._scored(table, "subtract" if rule == "choose" else rule, turn)  # no moon

    def _scored(self, table: Table, choice: MoonChoice, turn: Turn) -> list[Event]:
        taken = self._taken(table)
        shooter = moon_shooter(taken)
        moon_choice = choice if shooter is not None else None
        added = hand_points(taken, shooter, moon_choice, table.options.moon_points)
        totals = tuple(total + got for total, got in zip(table.totals, added, strict=True))
        scored = PenaltiesScored(
            hand=table.hand_number,
            taken=tuple(taken),
            moon=shooter,
            moon_choice=moon_choice,
            points=added,
            totals=totals,
        )
        if max(totals) >= table.options.target:
            return [scored]
        return [scored, self._deal(tables.evolve(table, scored), table.hand_number + 1, turn)]

    # --- state ----------------------------------------------------------------------------------

    def evolve(self, table: Table, event: Event) -> Table:
        return tables.evolve(table, event)

    # --- queries --------------------------------------------------------------------------------

    def legal_moves(self, table: Table, seat: int) -> list[Command | Choice]:
        if table.left[seat]:
            return []
        if table.phase == "passing":
            return legal_passes(table, seat)
        if table.phase == "moon":
            if table.moon_seat != seat:
                return []
            return [ChooseMoon(choice="subtract"), ChooseMoon(choice="add")]
        if table.awaited() != seat:
            return []
        allowed = dict.fromkeys(self._allowed(table, table.hands[seat]))
        return [PlayCard(card=card) for card in allowed]

    def to_act(self, table: Table) -> tuple[int, ...]:
        if table.phase == "passing":
            return tuple(s for s in table.seated() if table.passes[s] is None)
        if table.phase == "moon":
            return () if table.moon_seat is None else (table.moon_seat,)
        awaited = table.awaited()
        return () if awaited is None else (awaited,)

    def hand(self, table: Table, seat: int) -> tuple[str, ...]:
        return table.hands[seat] if table.hands else ()

    def hand_sizes(self, table: Table) -> tuple[int, ...]:
        if not table.hands:
            return (0,) * table.seat_count
        return tuple(len(hand) for hand in table.hands)

    def scores(self, table: Table) -> tuple[int, ...]:
        return table.totals

    def score_rows(self, table: Table) -> Sequence[ScoreRow]:
        return table.rows

    def seated(self, table: Table) -> tuple[int, ...]:
        return table.seated()

    def result(self, table: Table) -> Outcome | None:
        if table.phase != "over":
            return None
        seated = table.seated()
        best = min(table.totals[seat] for seat in seated)
        winners = tuple(seat for seat in seated if table.totals[seat] == best)
        return Outcome(scores=table.totals, winners=winners)

    def table_view(self, table: Table) -> CancellationHeartsView:
        return table_view(table)
