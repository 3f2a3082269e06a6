"""The contract every variant implements, as pure functions of immutable data.

A variant owns its table state (everything about the cards once the game has started). The
shared lifecycle in ``domain.game`` (seats, start, leaving, cancelling, finishing) calls it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, ClassVar, Final, Generic, TypeVar

import msgspec

from domain.choices import Choice, split
from domain.commands import Command
from domain.errors import Failure
from domain.events import Ending, Event, Secret
from domain.fairness import RandomStream
from domain.perspective import Perspective, shown

Table = TypeVar("Table")
Opts = TypeVar("Opts", bound=msgspec.Struct)


FORFEIT: Final = "forfeit"
COMPLETE: Final = "complete"


class Outcome(msgspec.Struct, frozen=True):
    """The final result. ``reason``: ``complete`` (the variant's own end) or ``forfeit`` (fewer
    than two seats were left at the table)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: Ending = COMPLETE


class ScoreRow(msgspec.Struct, frozen=True):
    """One line of a scoreboard: a hand (or round, or trick) and the points each seat got in it."""

    label: str
    points: tuple[int, ...]


class Turn:
    """What a decision may use besides the state: the time and the game's random stream.

    ``seal`` wraps a value in a Secret whose salt comes from the stream under a label unique to
    this decision, so replaying a decision reproduces its events exactly.
    """

    def __init__(self, now: datetime, rng: RandomStream | None, version: int) -> None:
        self.now = now
        self.rng = rng
        self.version = version
        self._sealed = 0

    def stream(self) -> RandomStream:
        if self.rng is None:
            raise RuntimeError("the random stream exists only once every seat is taken")
        return self.rng

    def seal(self, owner: int | None, value: Any) -> Secret[Any]:
        label = f"seal/{self.version}/{self._sealed}"
        self._sealed += 1
        return Secret(owner=owner, value=value, salt=self.stream().salt(label))


class Variant(ABC, Generic[Table, Opts]):
    """One card game. Implementations are stateless singletons registered by ``id``."""

    id: ClassVar[str]
    name: ClassVar[str]
    native_name: ClassVar[str]
    """The game's own name, as the rule texts give it (e.g. 心跳 for Heartbeat)."""
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options_type: ClassVar[type[msgspec.Struct]]
    commands: ClassVar[tuple[type[Command], ...]]
    events: ClassVar[tuple[type[Event], ...]]
    deadline_events: ClassVar[tuple[type[Event], ...]] = ()
    """Events that start a deadline, each recording it in a ``deadline`` field: the table's
    deadline is always the one the latest of them set, or None."""
    lower_score_wins: ClassVar[bool] = False
    refusals: ClassVar[Mapping[str, Failure]]
    """Every stable code a RuleViolation of this variant's rules can carry, with its kind of
    failure: the codes its own modules raise and those of the shared helpers it calls
    (``domain.cards.REFUSALS``...). The lifecycle's and command parsing's are apart
    (``domain.game.REFUSALS``, ``domain.commands.REFUSALS``); a test holds all to the source."""

    @property
    def rules_url(self) -> str:
        """The path of this variant's rules page (``docs/rules/<id>.md``) on the service."""
        return f"/rules/{self.id}"

    @abstractmethod
    def setup(self, options: Opts, seat_count: int) -> Table:
        """The table before the first deal."""

    @abstractmethod
    def start(self, table: Table, turn: Turn) -> list[Event]:
        """The opening events once every seat is taken (deal, first leader...)."""

    @abstractmethod
    def decide(self, table: Table, seat: int, command: Command, turn: Turn) -> list[Event]:
        """The events a seat's command causes, or a RuleViolation."""

    @abstractmethod
    def evolve(self, table: Table, event: Event) -> Table:
        """The table after an event. Never draws randomness: results are in the events."""

    @abstractmethod
    def after_leave(self, table: Table, seat: int, turn: Turn) -> list[Event]:
        """Events that follow a seat leaving (the table already shows it gone)."""

    @abstractmethod
    def legal_moves(self, table: Table, seat: int) -> list[Command | Choice]:
        """Every legal variant command for the seat, in a stable order: ready-to-send commands,
        and a choice form (``domain.choices``) wherever one kind has too many to list, its
        ``from`` in a fixed order, lowest cards first or as the hand is shown (its first entries
        make the commands listed for it). Moves that differ only by suits the rules never look
        at are listed once."""

    def legal_commands(self, table: Table, seat: int) -> list[Command]:
        """Ready-to-send commands only, as a view lists them: every listed command and the
        representatives of each choice form (``domain.choices.split``)."""
        return split(self.legal_moves(table, seat)).commands

    @abstractmethod
    def seated(self, table: Table) -> tuple[int, ...]:
        """Seats still at the table (not left)."""

    @abstractmethod
    def to_act(self, table: Table) -> tuple[int, ...]:
        """Seats whose input is awaited."""

    @abstractmethod
    def hand(self, table: Table, seat: int) -> tuple[str, ...]:
        """The seat's own cards."""

    @abstractmethod
    def hand_sizes(self, table: Table) -> tuple[int, ...]: ...

    @abstractmethod
    def scores(self, table: Table) -> tuple[int, ...]:
        """Running totals per seat."""

    @abstractmethod
    def score_rows(self, table: Table) -> Sequence[ScoreRow]:
        """Scoreboard lines, oldest first."""

    def outcome(self, table: Table) -> Outcome | None:
        """The final result once the game is over, else None.

        Common to every variant (RULES.md, Leaving): once fewer than two seats are left at the
        table the game is over by forfeit, the seat left (if any) wins and the scores stay as
        they stand. Otherwise the variant's own ``result`` decides.
        """
        seated = self.seated(table)
        if len(seated) < 2:
            return Outcome(scores=self.scores(table), winners=seated, reason=FORFEIT)
        return self.result(table)

    @abstractmethod
    def result(self, table: Table) -> Outcome | None:
        """The variant's own final result once its rules end the game, else None. Only seats
        still at the table may be among the winners."""

    @abstractmethod
    def table_view(self, table: Table) -> msgspec.Struct:
        """The variant's table state as served, built once for every perspective: a value only
        some may see is marked with ``domain.perspective.hidden`` (one owner's) or ``own`` (each
        seat's own entry), never chosen here."""

    def public_table(self, table: Table, perspective: Perspective) -> msgspec.Struct:
        """The variant's table state as the perspective may see it: ``table_view`` opened by
        the one rule of ``domain.perspective.shown``."""
        return shown(self.table_view(table), perspective)

    def deadline(self, table: Table) -> datetime | None:
        """When the server will act if nobody does (None: no timer running)."""
        return None

    def expire(self, table: Table, turn: Turn) -> list[Event]:
        """Events applied once the deadline has passed. ``turn.now`` is the deadline itself: an
        expiry takes effect at its deadline however late it is noticed, so a deadline it starts
        counts from there too."""
        return []
