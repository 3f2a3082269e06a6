"""Cancellation Hearts' options, commands and events (RULES.md §4; plays are the shared
``PlayCard``/``CardPlayed``)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.commands import Command
from domain.events import Event, Secret

MoonRule = Literal["choose", "subtract", "add"]
MoonChoice = Literal["subtract", "add"]
PassDirection = Literal["left", "right"]


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
    direction: PassDirection
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
    moon_choice: MoonChoice | None
    points: tuple[int, ...]
    totals: tuple[int, ...]
