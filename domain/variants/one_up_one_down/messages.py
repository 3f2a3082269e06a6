"""One Up One Down: options, commands and events (RULES.md §5)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, get_args

import msgspec

from domain.commands import Command
from domain.events import Event, Secret

Rank = Literal["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
RANKS: tuple[Rank, ...] = get_args(Rank)  # low to high, as CLIMBING_ORDER
StalemateReason = Literal["vote", "cap", "blocked", "abandoned"]
EndedBy = Literal["last_card", StalemateReason]
Facing = Literal["up", "down"]


class OneUpOneDownOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    challenge_seconds: Annotated[int, msgspec.Meta(ge=0, le=3600)] = 15
    max_plays: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 300


# --- commands ---------------------------------------------------------------------------------


class PlayUp(Command, frozen=True, tag="play_up"):
    """Play a card face up: its true rank becomes the target."""

    card: str


class PlayDown(Command, frozen=True, tag="play_down"):
    """Play a card face down and declare a rank (omitted: 3); the card stays hidden."""

    card: str
    declared: Rank = "3"


class Challenge(Command, frozen=True, tag="challenge"):
    """Challenge the face-down card just played."""


class Decline(Command, frozen=True, tag="decline"):
    """Let the face-down card just played stand, as far as this seat is concerned."""


class VoteEnd(Command, frozen=True, tag="vote_end"):
    """Agree to end the game now (stock empty): the fewest cards win."""


# --- events -----------------------------------------------------------------------------------


class HighCardDraw(msgspec.Struct, frozen=True):
    seat: int
    rank: str


class FirstPlayerDrawn(Event, frozen=True, tag="FirstPlayerDrawn"):
    """The high-card draw for the first player, round by round (ties draw again).

    Each round draws from its own freshly shuffled deck (label ``first-player/<round>``), not from
    the dealt cards, so the draw tells nothing about any hand. Suits never matter, so a draw is
    recorded by its rank.
    """

    rounds: tuple[tuple[HighCardDraw, ...], ...]
    seat: int


class CardPlayedFaceDown(Event, frozen=True, tag="CardPlayedFaceDown"):
    """A face-down play: the card is the player's secret until a challenge turns it up.

    ``target`` is the target before the play; ``deadline`` closes the challenge window (None: no
    deadline).
    """

    seat: int
    card: Secret[str]
    declared: Rank
    target: Rank
    deadline: datetime | None


class CardDrawn(Event, frozen=True, tag="CardDrawn"):
    """A card from the top of the stock, visible only to the seat that drew it."""

    seat: int
    card: Secret[str]


class Challenged(Event, frozen=True, tag="Challenged"):
    seat: int


class ChallengeDeclined(Event, frozen=True, tag="ChallengeDeclined"):
    seat: int


class ChallengeWindowExpired(Event, frozen=True, tag="ChallengeWindowExpired"):
    """The server closed the window at its deadline: ``unanswered`` seats count as declining."""

    unanswered: tuple[int, ...]


class ChallengeWindowClosed(Event, frozen=True, tag="ChallengeWindowClosed"):
    """The face-down card stands unchallenged: the declared rank is the new target."""

    seat: int
    declared: Rank


class ChallengeResolved(Event, frozen=True, tag="ChallengeResolved"):
    """The challenged card turned up. ``succeeded``: it was not the declared rank, or it was
    lower than ``target`` (the target before the play)."""

    seat: int
    challenger: int
    card: str
    declared: Rank
    target: Rank
    succeeded: bool


class PileCollected(Event, frozen=True, tag="PileCollected"):
    """The whole pile goes into ``seat``'s hand; that seat starts the next round face up.

    ``shown`` are the cards everybody has seen (face up or turned up); ``hidden`` are face-down
    cards nobody turned up, now visible to the taker only.
    """

    seat: int
    shown: tuple[str, ...]
    hidden: Secret[tuple[str, ...]]


class EndVoted(Event, frozen=True, tag="EndVoted"):
    seat: int


class LastCardStood(Event, frozen=True, tag="LastCardStood"):
    """``seat``'s last card stood: that seat wins."""

    seat: int


class StalemateEnded(Event, frozen=True, tag="StalemateEnded"):
    """The game ended without a last card: the fewest cards among seats still in win.

    ``reason``: ``vote`` (unanimous vote_end), ``cap`` (max_plays reached) or ``blocked``
    (nobody still in holds a card to play). (Logs from before forfeits were common to every
    variant may also hold ``abandoned``: at most one seat was still in.)
    """

    reason: StalemateReason
    hand_sizes: tuple[int, ...]
    winners: tuple[int, ...]
