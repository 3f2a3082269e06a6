"""Double Heartbeat's options, commands and events (the shared HandDealt/TrickWon are reused)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.commands import Command
from domain.events import Event, Secret
from domain.variants.double_heartbeat.combinations import Kind

MAX_CARDS = 104


class DoubleHeartbeatOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Table settings. ``hands`` None means one hand per player (RULES.md: ``hands: n_players``)."""

    dealer_exchange: Literal["bury", "none"] = "bury"
    betrayal: Literal["allowed", "forbidden"] = "allowed"
    hands: Annotated[int, msgspec.Meta(ge=1, le=20)] | None = None


# --- commands ---------------------------------------------------------------------------------


class BuryCards(Command, frozen=True, tag="bury"):
    """The dealer puts 0..k cards out of play, face down, before the first lead."""

    cards: Annotated[list[str], msgspec.Meta(max_length=MAX_CARDS)]


class PlayCombination(Command, frozen=True, tag="play"):
    """Play a combination; ``combination`` names the intended type (needed when ambiguous)."""

    cards: Annotated[list[str], msgspec.Meta(max_length=MAX_CARDS)]
    combination: Kind | None = None


class PassTurn(Command, frozen=True, tag="pass"):
    """Do not beat the top play this time (a pass does not lock the player out of the trick)."""


# --- events -----------------------------------------------------------------------------------


class FirstDealerDrawn(Event, frozen=True, tag="FirstDealerDrawn"):
    """The random stream's pick (label ``first-dealer``) of the dealer of the first hand."""

    seat: int


class CardsBuried(Event, frozen=True, tag="CardsBuried"):
    """The dealer's buried cards: only the dealer sees them until the hand ends."""

    seat: int
    count: int
    cards: Secret[tuple[str, ...]]


class CombinationPlayed(Event, frozen=True, tag="CombinationPlayed"):
    """A play; ``top`` is the compared value (see combinations.py), ``bonus`` the bomb bonus."""

    seat: int
    cards: tuple[str, ...]
    combination: Kind
    top: int
    rank: str
    bonus: int


class TurnPassed(Event, frozen=True, tag="TurnPassed"):
    seat: int


class AllianceFormed(Event, frozen=True, tag="AllianceFormed"):
    """``copier`` played exactly ``leader``'s fresh lead: they are allies to the end of the hand."""

    leader: int
    copier: int


class AllianceBroken(Event, frozen=True, tag="AllianceBroken"):
    """``by`` bombed the play of ``ally``: both are unallied again."""

    by: int
    ally: int


class PlayerWentOut(Event, frozen=True, tag="PlayerWentOut"):
    seat: int
    place: int


class LeadInherited(Event, frozen=True, tag="LeadInherited"):
    """The lead passes on because ``from_seat`` went out or left."""

    seat: int
    from_seat: int


class HandSettled(Event, frozen=True, tag="HandSettled"):
    """The end of a hand: finishing order, the last player, the buried cards made public and the
    place points (1st, 2nd, allied bonus, last) each seat scores; bomb bonuses came at once."""

    hand: int
    order: tuple[int, ...]
    last: int | None
    buried: tuple[str, ...]
    points: tuple[int, ...]
