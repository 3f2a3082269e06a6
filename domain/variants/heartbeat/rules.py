"""Heartbeat (心跳), RULES.md §1: three rounds of simultaneous secret choices under tempo cards.

Judgement calls (named in docs/rules/heartbeat.md, each cited by a test):

- ``heartbeat/leaver-choice-void``: a seat that leaves takes no further part. It is no longer
  awaited; a choice it had already made this round is void (never compared and never shown while
  the game runs: the full replay shows it once the game is over); its cards stay out of play.
- ``heartbeat/leaver-keeps-chips``: it keeps the chips it has won (the scoreboard shows them) but
  never wins: the winners are the most chips among the seats still at the table.
- ``heartbeat/timeout-pick-label``: a Pressure timeout picks from the seat's playable cards under
  a label per round and seat, so the pick depends neither on when the expiry runs nor on who else
  had chosen.
- ``heartbeat/expiry-at-deadline``: an expiry takes effect at its deadline; the next round's
  tempo card is flipped then, and a Pressure deadline it starts counts from there.
- ``heartbeat/late-command-after-expiry``: a command that arrives once the deadline has passed is
  decided after the timeout (the round closed, the next one begun), never refused for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import ClassVar

import msgspec

from domain.cards import REFUSALS as CARD_REFUSALS
from domain.cards import check_card_code, standard_deck
from domain.choices import Choice
from domain.commands import Command
from domain.deadlines import REFUSALS as DEADLINE_REFUSALS
from domain.deadlines import check_in_time, deadline_after
from domain.errors import Failure, RuleViolation
from domain.events import Event, HandDealt, PlayerLeft
from domain.turns import Play
from domain.variant import Outcome, ScoreRow, Turn, Variant
from domain.variants.heartbeat import table as tables
from domain.variants.heartbeat.messages import (
    TEMPO_KINDS,
    CardChosen,
    CardShown,
    ChoicesRevealed,
    ChoiceTimedOut,
    ChooseCard,
    HeartbeatOptions,
    RevealCard,
    RoundScored,
    TempoCardFlipped,
    TempoDeckShuffled,
)
from domain.variants.heartbeat.table import (
    HAND_SIZE,
    HeartbeatTable,
    by_value,
    public_rank,
    round_result,
)
from domain.variants.heartbeat.view import HeartbeatView, table_view


class Heartbeat(Variant[HeartbeatTable, HeartbeatOptions]):
    id: ClassVar[str] = "heartbeat"
    name: ClassVar[str] = "Heartbeat"
    native_name: ClassVar[str] = "心跳"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 6
    options_type: ClassVar[type[msgspec.Struct]] = HeartbeatOptions
    commands: ClassVar[tuple[type[Command], ...]] = (RevealCard, ChooseCard)
    events: ClassVar[tuple[type[Event], ...]] = (
        HandDealt,
        TempoDeckShuffled,
        TempoCardFlipped,
        CardShown,
        CardChosen,
        ChoiceTimedOut,
        ChoicesRevealed,
        RoundScored,
        PlayerLeft,
    )
    deadline_events: ClassVar[tuple[type[Event], ...]] = (TempoCardFlipped,)
    refusals: ClassVar[Mapping[str, Failure]] = {
        **CARD_REFUSALS,
        **DEADLINE_REFUSALS,
        "no_reveal_now": Failure.CONFLICT,
        "already_revealed": Failure.CONFLICT,
        "card_not_in_hand": Failure.CONFLICT,
        "reveal_first": Failure.CONFLICT,
        "reveal_in_progress": Failure.CONFLICT,
        "already_chosen": Failure.CONFLICT,
        "revealed_card_not_playable": Failure.CONFLICT,
    }

    def setup(self, options: HeartbeatOptions, seat_count: int) -> HeartbeatTable:
        return tables.setup(options, seat_count)

    def start(self, table: HeartbeatTable, turn: Turn) -> list[Event]:
        rng = turn.stream()
        deck = rng.shuffle("deal/1", standard_deck(jokers=table.options.jokers == "zero"))
        count = table.seat_count
        events: list[Event] = [
            HandDealt(
                hand=1,
                dealer=0,
                hands=tuple(
                    turn.seal(seat, deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE])
                    for seat in range(count)
                ),
                rest=turn.seal(None, deck[count * HAND_SIZE :]),
            )
        ]
        each = table.options.tempo_deck // len(TEMPO_KINDS)
        if each:
            ordered = [kind for kind in TEMPO_KINDS for _ in range(each)]
            tempo = rng.shuffle("tempo", ordered)
            events.append(TempoDeckShuffled(size=len(tempo), cards=turn.seal(None, tempo)))
        table = self._fold(table, events)
        return events + self._flip(table, turn)

    def decide(self, table: HeartbeatTable, seat: int, command: Command, turn: Turn) -> list[Event]:
        if isinstance(command, RevealCard):
            return self._reveal(table, seat, check_card_code(command.card), turn)
        assert isinstance(command, ChooseCard)
        return self._choose(table, seat, check_card_code(command.card), turn)

    def _reveal(self, table: HeartbeatTable, seat: int, card: str, turn: Turn) -> list[Event]:
        if not table.revealing:
            raise RuleViolation(
                "no_reveal_now", "a card is revealed only at the start of a Reveal round"
            )
        if table.shown[seat] is not None:
            raise RuleViolation("already_revealed", "you have already revealed a card this round")
        if card not in table.hands[seat]:
            raise RuleViolation("card_not_in_hand", f"{card} is not in your hand")
        if table.options.reveal_shows == "card":
            shown = CardShown(round=table.round, seat=seat, rank=public_rank(card), card=card)
        else:
            shown = CardShown(
                round=table.round, seat=seat, rank=public_rank(card), sealed=turn.seal(seat, card)
            )
        return [shown]

    def _choose(self, table: HeartbeatTable, seat: int, card: str, turn: Turn) -> list[Event]:
        if table.revealing:
            if table.shown[seat] is None:
                raise RuleViolation("reveal_first", "reveal a card before you choose one")
            raise RuleViolation(
                "reveal_in_progress", "choosing begins once every player has revealed a card"
            )
        if table.chosen[seat] is not None:
            raise RuleViolation("already_chosen", "you have already chosen a card this round")
        check_in_time(table.deadline, turn.now)
        if card not in table.hands[seat]:
            raise RuleViolation("card_not_in_hand", f"{card} is not in your hand")
        if card == table.shown[seat]:
            raise RuleViolation(
                "revealed_card_not_playable", "the card you revealed cannot be chosen this round"
            )
        chosen = CardChosen(round=table.round, seat=seat, card=turn.seal(seat, card))
        return [chosen, *self._close_round(tables.evolve(table, chosen), turn)]

    def after_leave(self, table: HeartbeatTable, seat: int, turn: Turn) -> list[Event]:
        return self._close_round(table, turn)

    def expire(self, table: HeartbeatTable, turn: Turn) -> list[Event]:
        if table.running_deadline() is None:
            return []
        seats = table.awaited()
        rng = turn.stream()
        # One label per round and seat: a pick depends neither on when the expiry runs nor on
        # which other seats had chosen by then.
        picks = [
            rng.choice(f"timeout/round/{table.round}/seat/{seat}", table.playable(seat))
            for seat in seats
        ]
        timed_out = ChoiceTimedOut(
            round=table.round,
            seats=seats,
            cards=tuple(turn.seal(seat, card) for seat, card in zip(seats, picks, strict=True)),
        )
        return [timed_out, *self._close_round(tables.evolve(table, timed_out), turn)]

    def deadline(self, table: HeartbeatTable) -> datetime | None:
        return table.running_deadline()

    def _close_round(self, table: HeartbeatTable, turn: Turn) -> list[Event]:
        """Reveal and score the round once every seat at the table has chosen; flip the next."""
        if not table.dealt or table.over or table.revealing or table.awaited():
            return []
        plays = tuple(Play(seat=seat, card=table.chosen[seat] or "") for seat in table.present())
        winners, chips = round_result(plays, table.tempo, table.options, table.seat_count)
        events: list[Event] = [
            ChoicesRevealed(round=table.round, plays=plays),
            RoundScored(round=table.round, tempo=table.tempo, winners=winners, chips=chips),
        ]
        return events + self._flip(self._fold(table, events), turn)

    def _flip(self, table: HeartbeatTable, turn: Turn) -> list[Event]:
        if table.over or not table.tempo_deck:
            return []
        tempo = table.tempo_deck[0]
        seconds = table.options.pressure_seconds if tempo == "pressure" else 0
        return [
            TempoCardFlipped(
                round=table.round, tempo=tempo, deadline=deadline_after(turn.now, seconds)
            )
        ]

    def _fold(self, table: HeartbeatTable, events: Sequence[Event]) -> HeartbeatTable:
        for event in events:
            table = tables.evolve(table, event)
        return table

    def evolve(self, table: HeartbeatTable, event: Event) -> HeartbeatTable:
        return tables.evolve(table, event)

    def legal_moves(self, table: HeartbeatTable, seat: int) -> list[Command | Choice]:
        if seat not in table.awaited():
            return []
        if table.revealing:
            return [RevealCard(card=card) for card in sorted(table.hands[seat], key=by_value)]
        return [ChooseCard(card=card) for card in sorted(table.playable(seat), key=by_value)]

    def to_act(self, table: HeartbeatTable) -> tuple[int, ...]:
        return table.awaited()

    def hand(self, table: HeartbeatTable, seat: int) -> tuple[str, ...]:
        return tuple(sorted(table.hands[seat], key=by_value))

    def hand_sizes(self, table: HeartbeatTable) -> tuple[int, ...]:
        return tuple(len(hand) for hand in table.hands)

    def scores(self, table: HeartbeatTable) -> tuple[int, ...]:
        return table.chips

    def score_rows(self, table: HeartbeatTable) -> Sequence[ScoreRow]:
        return [ScoreRow(label=f"round {r.round}", points=r.chips) for r in table.rounds]

    def seated(self, table: HeartbeatTable) -> tuple[int, ...]:
        return tuple(table.present())

    def result(self, table: HeartbeatTable) -> Outcome | None:
        if not table.over:
            return None
        seated = table.present()
        best = max(table.chips[seat] for seat in seated)
        winners = tuple(seat for seat in seated if table.chips[seat] == best)
        return Outcome(scores=table.chips, winners=winners)

    def table_view(self, table: HeartbeatTable) -> HeartbeatView:
        return table_view(table)
