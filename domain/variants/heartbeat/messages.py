"""Heartbeat's options, commands and events (RULES.md §1).

A choice is secret until every seat at the table has chosen: ``CardChosen`` and ``ChoiceTimedOut``
hold the card in a Secret owned by the chooser, and one ``ChoicesRevealed`` shows them all.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

import msgspec

from domain.commands import Command
from domain.events import Event, Secret
from domain.turns import Play

Tempo = Literal["pressure", "reveal", "reverse", "double"]
TEMPO_KINDS: tuple[Tempo, ...] = ("pressure", "reveal", "reverse", "double")


class HeartbeatOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    jokers: Literal["zero", "removed"] = "zero"
    tempo_deck: Literal[12, 8, 0] = 12
    reveal_shows: Literal["card", "rank"] = "card"
    pressure_seconds: Literal[5, 10] = 5
    double_rule: Literal["winner_only", "others_one"] = "winner_only"


class RevealCard(Command, frozen=True, tag="reveal"):
    """Show one card of the hand at the start of a Reveal round."""

    card: str


class ChooseCard(Command, frozen=True, tag="choose"):
    """Choose this round's card, face down."""

    card: str


class TempoDeckShuffled(Event, frozen=True, tag="TempoDeckShuffled"):
    """The face-down tempo deck, top card first; its order stays hidden until the game ends."""

    size: int
    cards: Secret[tuple[Tempo, ...]]


class TempoCardFlipped(Event, frozen=True, tag="TempoCardFlipped"):
    """The top tempo card, face up for this round; a Pressure card starts the choosing timer."""

    round: int
    tempo: Tempo
    deadline: datetime | None = None


class CardShown(Event, frozen=True, tag="CardShown"):
    """A card revealed in a Reveal round. With ``reveal_shows: rank`` only the rank is public and
    the card itself is sealed for its owner (``card`` is then None)."""

    round: int
    seat: int
    rank: str
    card: str | None = None
    sealed: Secret[str] | None = None


class CardChosen(Event, frozen=True, tag="CardChosen"):
    """A seat's secret choice for the round: only the chooser sees the card."""

    round: int
    seat: int
    card: Secret[str]


class ChoiceTimedOut(Event, frozen=True, tag="ChoiceTimedOut"):
    """The Pressure deadline passed: the random card picked for each seat that had not chosen,
    each sealed for its seat like a choice."""

    round: int
    seats: tuple[int, ...]
    cards: tuple[Secret[str], ...]


class ChoicesRevealed(Event, frozen=True, tag="ChoicesRevealed"):
    """Every choice of the round, shown at once (seats that left are not in it)."""

    round: int
    plays: tuple[Play, ...]


class RoundScored(Event, frozen=True, tag="RoundScored"):
    """Who won the round and the chips each seat got in it."""

    round: int
    tempo: Tempo | None
    winners: tuple[int, ...]
    chips: tuple[int, ...]
