"""One Up One Down (一上一下), RULES.md §5: face up, face down, bluff and challenge.

Judgement calls (named in docs/rules/one-up-one-down.md, each cited by a test):

- ``one-up-one-down/first-player-fresh-deck``: each round of the high-card draw for the first
  player shuffles a fresh 52-card deck of its own (label ``first-player/<round>``), so the draw
  tells nothing about any hand; only the seats tied for the highest rank draw again.
- ``one-up-one-down/new-round-target-3``: the target is 3 at the start and again whenever a pile
  is collected, so the face-up card that opens a round is never below it.
- ``one-up-one-down/one-card-per-rank``: suits never matter, so the legal commands list one card
  of each rank held (with every declaration for a face-down play).
- ``one-up-one-down/votes-reset-on-play``: a card played cancels the end votes given so far.
- ``one-up-one-down/vote-needs-closed-window``: ``vote_end`` waits for an open challenge window
  to close.
- ``one-up-one-down/leaver-card-stands``: a face-down card whose player leaves while its window is
  open stands as declared (nobody can make a seat that is gone take the pile).
- ``one-up-one-down/leaver-answer-not-awaited``: a responder who leaves is no longer awaited; the
  window closes at once if its outcome is then certain.
- ``one-up-one-down/blocked-ends-like-stalemate``: if no seat still in holds a card to play, the
  game ends as a stalemate does (fewest cards win).
- ``one-up-one-down/cap-counts-card-plays``: ``max_plays`` counts cards played, face up or down.
- ``one-up-one-down/late-answer-after-expiry``: an answer or play that arrives once the window's
  deadline has passed is decided after the expiry (unanswered seats declined), never refused for
  a deadline nobody had applied yet.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import ClassVar

import msgspec

from domain.cards import CLIMBING_ORDER, check_card_code, rank, standard_deck
from domain.cards import REFUSALS as CARD_REFUSALS
from domain.choices import Choice
from domain.commands import Command
from domain.deadlines import REFUSALS as DEADLINE_REFUSALS
from domain.deadlines import check_in_time, deadline_after
from domain.errors import Failure, RuleViolation, invalid
from domain.events import CardPlayed, Event, HandDealt, PlayerLeft
from domain.fairness import RandomStream
from domain.turns import REFUSALS as TURN_REFUSALS
from domain.turns import check_play
from domain.variant import Outcome, ScoreRow, Turn, Variant
from domain.variants.one_up_one_down.messages import (
    RANKS,
    CardDrawn,
    CardPlayedFaceDown,
    Challenge,
    Challenged,
    ChallengeDeclined,
    ChallengeResolved,
    ChallengeWindowClosed,
    ChallengeWindowExpired,
    Decline,
    EndVoted,
    FirstPlayerDrawn,
    HighCardDraw,
    LastCardStood,
    OneUpOneDownOptions,
    PileCollected,
    PlayDown,
    PlayUp,
    StalemateEnded,
    StalemateReason,
    VoteEnd,
)
from domain.variants.one_up_one_down.table import OneUpOneDownTable, evolve, order, setup
from domain.variants.one_up_one_down.view import OneUpOneDownView, table_view

HAND_SIZE = 7


def first_player(rng: RandomStream, seat_count: int) -> FirstPlayerDrawn:
    """High-card draw: every contender draws a card; those tied for the highest draw again."""
    contenders = list(range(seat_count))
    rounds: list[tuple[HighCardDraw, ...]] = []
    while len(contenders) > 1:
        deck = rng.shuffle(f"first-player/{len(rounds) + 1}", standard_deck())
        draws = tuple(
            HighCardDraw(seat, rank(card)) for seat, card in zip(contenders, deck, strict=False)
        )
        rounds.append(draws)
        best = max(order(draw.rank) for draw in draws)
        contenders = [draw.seat for draw in draws if order(draw.rank) == best]
    return FirstPlayerDrawn(rounds=tuple(rounds), seat=contenders[0])


def window_open() -> RuleViolation:
    return RuleViolation(
        "challenge_window_open", "the face-down card just played can still be challenged"
    )


class OneUpOneDown(Variant[OneUpOneDownTable, OneUpOneDownOptions]):
    id: ClassVar[str] = "one-up-one-down"
    name: ClassVar[str] = "One Up One Down"
    native_name: ClassVar[str] = "一上一下"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    options_type: ClassVar[type[msgspec.Struct]] = OneUpOneDownOptions
    commands: ClassVar[tuple[type[Command], ...]] = (PlayUp, PlayDown, Challenge, Decline, VoteEnd)
    events: ClassVar[tuple[type[Event], ...]] = (
        HandDealt,
        FirstPlayerDrawn,
        CardPlayed,
        CardPlayedFaceDown,
        CardDrawn,
        Challenged,
        ChallengeDeclined,
        ChallengeWindowExpired,
        ChallengeWindowClosed,
        ChallengeResolved,
        PileCollected,
        EndVoted,
        LastCardStood,
        StalemateEnded,
        PlayerLeft,
    )
    deadline_events: ClassVar[tuple[type[Event], ...]] = (CardPlayedFaceDown,)
    refusals: ClassVar[Mapping[str, Failure]] = {
        **CARD_REFUSALS,
        **DEADLINE_REFUSALS,
        **TURN_REFUSALS,
        "unknown_command": Failure.INVALID,
        "challenge_window_open": Failure.CONFLICT,
        "must_play_face_up": Failure.CONFLICT,
        "must_play_face_down": Failure.CONFLICT,
        "unknown_rank": Failure.INVALID,
        "no_challenge_window": Failure.CONFLICT,
        "own_card": Failure.CONFLICT,
        "already_answered": Failure.CONFLICT,
        "stock_not_empty": Failure.CONFLICT,
        "already_voted": Failure.CONFLICT,
    }

    def setup(self, options: OneUpOneDownOptions, seat_count: int) -> OneUpOneDownTable:
        return setup(options, seat_count)

    def start(self, table: OneUpOneDownTable, turn: Turn) -> list[Event]:
        rng = turn.stream()
        count = table.seat_count
        deck = rng.shuffle("deal/1", standard_deck())
        hands = [deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(count)]
        dealt = HandDealt(
            hand=1,
            dealer=0,
            hands=tuple(turn.seal(seat, hand) for seat, hand in enumerate(hands)),
            rest=turn.seal(None, deck[count * HAND_SIZE :]),
        )
        return [dealt, first_player(rng, count)]

    # --- deciding -----------------------------------------------------------------------------

    def decide(
        self, table: OneUpOneDownTable, seat: int, command: Command, turn: Turn
    ) -> list[Event]:
        events: list[Event]
        match command:
            case PlayUp():
                events = self._play_up(table, seat, command.card, turn)
            case PlayDown():
                events = self._play_down(table, seat, command, turn)
            case Challenge() | Decline():
                events = self._answer(table, seat, isinstance(command, Challenge), turn.now)
                events += self._close(self._fold(table, events), turn)
            case VoteEnd():
                events = self._vote(table, seat)
            case _:
                raise invalid("unknown_command", "one-up-one-down has no such command")
        return [*events, *self._settle(self._fold(table, events))]

    def _check_play(self, table: OneUpOneDownTable, seat: int, card: str, down: bool) -> None:
        check_card_code(card)
        if table.window is not None:
            raise window_open()
        check_play(table.to_play(), seat, table.hands[seat], card)
        if down and not table.face_down_next:
            raise RuleViolation("must_play_face_up", "this card must be played face up")
        if not down and table.face_down_next:
            raise RuleViolation("must_play_face_down", "this card must be played face down")

    def _play_up(self, table: OneUpOneDownTable, seat: int, card: str, turn: Turn) -> list[Event]:
        self._check_play(table, seat, card, down=False)
        below = order(rank(card)) < order(table.target)
        events: list[Event] = [CardPlayed(seat=seat, card=card)]
        if below and table.stock:
            events.append(CardDrawn(seat=seat, card=turn.seal(seat, table.stock[0])))
        elif len(table.hands[seat]) == 1:
            # The last card stands: at or above the target, or below it with nothing to draw.
            events.append(LastCardStood(seat=seat))
        return events

    def _play_down(
        self, table: OneUpOneDownTable, seat: int, command: PlayDown, turn: Turn
    ) -> list[Event]:
        if command.declared not in CLIMBING_ORDER:
            raise invalid(
                "unknown_rank", f"{command.declared!r} is not a rank (3..10, J, Q, K, A, 2)"
            )
        self._check_play(table, seat, command.card, down=True)
        return [
            CardPlayedFaceDown(
                seat=seat,
                card=turn.seal(seat, command.card),
                declared=command.declared,
                target=table.target,
                deadline=deadline_after(turn.now, table.options.challenge_seconds),
            )
        ]

    def _answer(
        self, table: OneUpOneDownTable, seat: int, challenge: bool, now: datetime
    ) -> list[Event]:
        window = table.window
        if window is None:
            raise RuleViolation("no_challenge_window", "no face-down card is waiting for answers")
        if seat == window.seat:
            raise RuleViolation("own_card", "you cannot answer a challenge window on your own card")
        if table.answer_of(seat) is not None:
            raise RuleViolation("already_answered", "you have already answered this card")
        check_in_time(window.deadline, now)
        return [Challenged(seat=seat) if challenge else ChallengeDeclined(seat=seat)]

    def _vote(self, table: OneUpOneDownTable, seat: int) -> list[Event]:
        if table.stock:
            raise RuleViolation("stock_not_empty", "ending by vote needs an empty stock")
        if table.window is not None:
            raise window_open()
        if table.votes[seat]:
            raise RuleViolation("already_voted", "you have already voted to end")
        return [EndVoted(seat=seat)]

    def _close(self, table: OneUpOneDownTable, turn: Turn) -> list[Event]:
        """The window's closing events once its outcome is certain (none while it is open)."""
        window = table.window
        verdict = table.verdict()
        if window is None or verdict.open:
            return []
        out = not table.hands[window.seat]
        if verdict.challenger is None:
            closed: list[Event] = [
                ChallengeWindowClosed(seat=window.seat, declared=window.declared)
            ]
            return [*closed, LastCardStood(seat=window.seat)] if out else closed
        card = table.pile[-1].card
        succeeded = rank(card) != window.declared or order(rank(card)) < order(window.target)
        taker = window.seat if succeeded else verdict.challenger
        resolved = ChallengeResolved(
            seat=window.seat,
            challenger=verdict.challenger,
            card=card,
            declared=window.declared,
            target=window.target,
            succeeded=succeeded,
        )
        pile = evolve(table, resolved).pile
        collected = PileCollected(
            seat=taker,
            shown=tuple(c.card for c in pile if not c.face_down or c.revealed),
            hidden=turn.seal(taker, tuple(c.card for c in pile if c.face_down and not c.revealed)),
        )
        events: list[Event] = [resolved, collected]
        return [*events, LastCardStood(seat=window.seat)] if out and not succeeded else events

    def _settle(self, table: OneUpOneDownTable) -> list[Event]:
        """A stalemate ending once it is due (the fewest cards among seats still in win)."""
        if not table.dealt or table.over or table.window is not None:
            return []
        reason: StalemateReason
        if not table.stock and table.all_voted():
            reason = "vote"
        elif table.plays >= table.options.max_plays:
            reason = "cap"
        elif table.to_play() is None:
            reason = "blocked"
        else:
            return []
        return [
            StalemateEnded(
                reason=reason, hand_sizes=self.hand_sizes(table), winners=table.fewest_cards()
            )
        ]

    def _fold(self, table: OneUpOneDownTable, events: Iterable[Event]) -> OneUpOneDownTable:
        for event in events:
            table = evolve(table, event)
        return table

    def evolve(self, table: OneUpOneDownTable, event: Event) -> OneUpOneDownTable:
        return evolve(table, event)

    def after_leave(self, table: OneUpOneDownTable, seat: int, turn: Turn) -> list[Event]:
        window = table.window
        events: list[Event] = []
        if window is not None and not table.over:
            if window.seat == seat:
                # Nobody may take the pile for a seat that is gone: its card stands as declared.
                events = [ChallengeWindowClosed(seat=seat, declared=window.declared)]
            else:
                events = self._close(table, turn)
        return [*events, *self._settle(self._fold(table, events))]

    def deadline(self, table: OneUpOneDownTable) -> datetime | None:
        return table.window.deadline if table.window is not None and not table.over else None

    def expire(self, table: OneUpOneDownTable, turn: Turn) -> list[Event]:
        if table.window is None or table.over:
            return []
        events: list[Event] = [ChallengeWindowExpired(unanswered=table.awaiting())]
        events += self._close(self._fold(table, events), turn)
        return [*events, *self._settle(self._fold(table, events))]

    # --- reading ------------------------------------------------------------------------------

    def legal_moves(self, table: OneUpOneDownTable, seat: int) -> list[Command | Choice]:
        if not table.dealt or table.over or table.left[seat]:
            return []
        if table.window is not None:
            return [Challenge(), Decline()] if seat in table.awaiting() else []
        commands: list[Command | Choice] = []
        if table.to_play() == seat:
            # Suits never matter: one card per rank stands for all the cards of that rank.
            cards = list({rank(card): card for card in reversed(table.hands[seat])}.values())
            cards.sort(key=lambda card: order(rank(card)))
            if table.face_down_next:
                commands += [
                    PlayDown(card=card, declared=declared) for card in cards for declared in RANKS
                ]
            else:
                commands += [PlayUp(card=card) for card in cards]
        if not table.stock and not table.votes[seat]:
            commands.append(VoteEnd())
        return commands

    def to_act(self, table: OneUpOneDownTable) -> tuple[int, ...]:
        if table.window is not None and not table.over:
            return table.awaiting()
        awaited = table.to_play()
        return () if awaited is None else (awaited,)

    def hand(self, table: OneUpOneDownTable, seat: int) -> tuple[str, ...]:
        return table.hands[seat]

    def hand_sizes(self, table: OneUpOneDownTable) -> tuple[int, ...]:
        return tuple(len(hand) for hand in table.hands)

    def scores(self, table: OneUpOneDownTable) -> tuple[int, ...]:
        winners = table.winners or ()
        return tuple(int(seat in winners) for seat in range(table.seat_count))

    def score_rows(self, table: OneUpOneDownTable) -> Sequence[ScoreRow]:
        return [ScoreRow(label="result", points=self.scores(table))] if table.over else []

    def seated(self, table: OneUpOneDownTable) -> tuple[int, ...]:
        return table.still_in()

    def result(self, table: OneUpOneDownTable) -> Outcome | None:
        if table.winners is None:
            return None
        return Outcome(scores=self.scores(table), winners=table.winners)

    def table_view(self, table: OneUpOneDownTable) -> OneUpOneDownView:
        return table_view(table)
