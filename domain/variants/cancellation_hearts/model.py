"""Cancellation Hearts data: options, commands, events, the table and its public view."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.commands import Command
from domain.events import Event, Secret
from domain.turns import Play
from domain.variant import ScoreRow

MoonRule = Literal["choose", "subtract", "add"]
MoonChoice = Literal["subtract", "add"]


class CancellationHeartsOptions(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True
):
    moon: MoonRule = "choose"
    moon_points: Annotated[int, msgspec.Meta(ge=1, le=500)] = 26
    target: Annotated[int, msgspec.Meta(ge=50, le=500)] = 150


# --- commands -----------------------------------------------------------------------------------


class PassCards(Command, frozen=True, tag="pass_cards"):
    """Pass three of your cards, face down (a code twice only if you hold it twice)."""

    cards: Annotated[tuple[str, ...], msgspec.Meta(min_length=3, max_length=3)]


class ChooseMoon(Command, frozen=True, tag="moon"):
    """After shooting the moon: -moon_points to yourself, or +moon_points to every other seat."""

    choice: MoonChoice


# --- events -------------------------------------------------------------------------------------


class CardsPassed(Event, frozen=True, tag="CardsPassed"):
    """A seat committed its pass; only the passer sees the cards."""

    hand: int
    seat: int
    cards: Secret[tuple[str, ...]]


class PassesDelivered(Event, frozen=True, tag="PassesDelivered"):
    """Every pass delivered at once: ``received[r]`` (seen by seat r only) came from
    ``senders[r]`` (None: seat r takes no part in passing, having left)."""

    hand: int
    direction: str  # "left" or "right"
    senders: tuple[int | None, ...]
    received: tuple[Secret[tuple[str, ...]], ...]


class TrickResolved(Event, frozen=True, tag="TrickResolved"):
    """The end of a trick: which codes cancelled, and who won it or that nobody did.

    ``collected``: the trick and the carry pile, to the winner. ``carried``: the carry pile
    after a winnerless trick. ``discarded``: a winnerless last trick and the carry pile, that
    nobody collects. ``kitty``: the kitty, taken with the first trick that has a winner (seen
    by the winner only). ``points``: the points in ``collected`` (the kitty's are added when
    the hand is scored).
    """

    hand: int
    trick: int
    leader: int
    cards: tuple[str, ...]
    cancelled: tuple[str, ...]
    winner: int | None
    collected: tuple[str, ...] = ()
    carried: tuple[str, ...] = ()
    discarded: tuple[str, ...] = ()
    kitty: Secret[tuple[str, ...]] | None = None
    points: int = 0
    last: bool = False


class MoonShot(Event, frozen=True, tag="MoonShot"):
    """A seat took every heart and both queens of spades and now chooses how to score it."""

    hand: int
    seat: int


class PenaltiesScored(Event, frozen=True, tag="PenaltiesScored"):
    """The hand's score. ``taken``: points each seat took (tricks and kitty); ``points``: what
    the hand adds to each total after the moon; ``totals``: the running totals after it."""

    hand: int
    taken: tuple[int, ...]
    moon: int | None
    moon_choice: str | None
    points: tuple[int, ...]
    totals: tuple[int, ...]


# --- state --------------------------------------------------------------------------------------


class TrickSummary(msgspec.Struct, frozen=True, kw_only=True):
    """A resolved trick as every seat saw it."""

    trick: int
    leader: int
    plays: tuple[Play, ...]
    cancelled: tuple[str, ...]
    winner: int | None
    points: int


class CancellationHeartsTable(msgspec.Struct, frozen=True, kw_only=True):
    options: CancellationHeartsOptions
    seat_count: int
    left: tuple[bool, ...]
    totals: tuple[int, ...]
    rows: tuple[ScoreRow, ...] = ()
    phase: str = "waiting"  # waiting, passing, playing, moon, scored, over
    hand_number: int = 0
    dealer: int = 0
    hands: tuple[tuple[str, ...], ...] = ()
    passes: tuple[tuple[str, ...] | None, ...] = ()  # committed, not yet delivered
    received: tuple[tuple[str, ...], ...] = ()
    kitty: tuple[str, ...] = ()  # not yet taken
    kitty_taker: int | None = None
    kitty_taken: tuple[str, ...] = ()
    leader: int = 0
    plays: tuple[Play, ...] = ()
    tricks: int = 0  # resolved this hand
    carry: tuple[str, ...] = ()
    broken: bool = False
    trick_points: tuple[int, ...] = ()  # from tricks only: public
    last_trick: TrickSummary | None = None
    moon_seat: int | None = None

    def at_table(self, seat: int) -> bool:
        return not self.left[seat]

    def seated(self) -> tuple[int, ...]:
        return tuple(seat for seat in range(self.seat_count) if not self.left[seat])

    def eligible(self, seat: int) -> bool:
        """Still at the table with a card to play."""
        return not self.left[seat] and bool(self.hands[seat])

    def current_leader(self) -> int | None:
        return self._first_from(self.leader, ())

    def awaited(self) -> int | None:
        """Whose card the trick waits for (playing phase only): the first seat in turn order from
        the trick's leader that is at the table, holds a card and has not played to it."""
        if self.phase != "playing":
            return None
        if not self.plays:
            return self._first_from(self.leader, ())
        return self._first_from(self.plays[0].seat, tuple(play.seat for play in self.plays))

    def _first_from(self, start: int, played: tuple[int, ...]) -> int | None:
        # The same walk as domain.turns.first_eligible, inlined: it runs several times per card.
        count = self.seat_count
        for step in range(count):
            seat = (start + step) % count
            if self.hands[seat] and not self.left[seat] and seat not in played:
                return seat
        return None

    def out_of_cards(self) -> bool:
        """Nobody still at the table holds a card: the hand's play is over."""
        return not any(self.hands[seat] for seat in range(self.seat_count) if not self.left[seat])


class CancellationHeartsView(msgspec.Struct, frozen=True, kw_only=True):
    """The table as one perspective sees it; ``my_pass``, ``received`` and ``kitty`` are only
    ever the viewer's own."""

    options: CancellationHeartsOptions
    hand_number: int
    dealer: int
    phase: str
    pass_direction: str | None
    passed: tuple[bool, ...]
    my_pass: tuple[str, ...] | None
    received: tuple[str, ...] | None
    leader: int | None
    trick: tuple[Play, ...]
    last_trick: TrickSummary | None
    tricks_played: int
    carry: tuple[str, ...]
    kitty_size: int
    kitty_taker: int | None
    kitty: tuple[str, ...] | None
    hearts_broken: bool
    trick_points: tuple[int, ...]
    moon_seat: int | None
