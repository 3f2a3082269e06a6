"""The command path's unit of work: decide on this process's copy of a game, save at once.

The store refuses an event whose (game, version) is taken, so that key is the concurrency
check: a stale copy costs a retry, never a wrong write. What the key cannot check is checked
against the game as stored before it is believed: a refusal, or a decision to do nothing, made
on a copy that turns out to be behind is decided again on the newer game. A keyed request that
was carried out before (its receipt exists) is answered from its receipt, whichever way the
new attempt went.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from enum import StrEnum
from typing import Any, NamedTuple
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from domain.aggregate import GameAggregate, Recorded
from domain.errors import RuleViolation
from service.errors import TOO_MUCH_CONTENTION, ApiError
from service.store.event_store import Store
from service.store.games import Games
from service.store.receipts import Carried, ReceiptKey, Receipts
from service.store.troubles import Troubles

MAX_ATTEMPTS = 8
Decide = Callable[[GameAggregate], list[Recorded]]  # records its events on the game it is given
Saved = Callable[[GameAggregate, list[Recorded]], None]


class Outcome(StrEnum):
    """What became of a command (telemetry counts them)."""

    APPLIED = "applied"  # its events were written
    UNCHANGED = "unchanged"  # nothing to write, confirmed on the stored game
    REPLAYED = "replayed"  # answered from its receipt: a retry of a request carried out
    REFUSED = "refused"
    CONTENDED = "contended"  # given up after version conflicts
    FAILED = "failed"


class Settled(NamedTuple):
    """A command's result: the game after it, the events it recorded, what became of it, and
    the moment its answer is as of (None: now; a replay answers as of the original)."""

    game: GameAggregate
    recorded: list[Recorded]
    outcome: Outcome
    at: datetime | None = None

    @staticmethod
    def replayed(carried: Carried) -> Settled:
        return Settled(carried.game, carried.recorded, Outcome.REPLAYED, carried.at)


class UnitOfWork:
    def __init__(
        self,
        store: Store,
        games: Games,
        troubles: Troubles,
        clock: Callable[[], datetime],
    ) -> None:
        self._store = store
        self._games = games
        self._receipts = Receipts(store)
        self._troubles = troubles
        self._clock = clock
        self._saved: list[Saved] = []

    def after_save(self, listener: Saved) -> None:
        """Tell ``listener`` of every game this process saves, with the events just saved."""
        self._saved.append(listener)

    def game(self, game_id: UUID) -> GameAggregate:
        """This process's copy of the game to decide on (possibly behind the store)."""
        return self._games.cached(game_id)

    def create(self, make: Callable[[], GameAggregate], key: ReceiptKey | None) -> Settled:
        """Save a new game, made by ``make`` (which may refuse)."""
        try:
            game = make()
        except (RuleViolation, ApiError) as refusal:
            return self._carried_or(refusal, key)
        recorded: list[Recorded] = list(game.pending_events)  # type: ignore[arg-type]
        try:
            self._save(game, recorded, key, from_version=0)
        except IntegrityError as clash:
            # The game id is new, so only the receipt can clash: the key was used before.
            return self._carried_or(clash, key)
        return Settled(game, recorded, Outcome.APPLIED)

    def settle(self, known: GameAggregate, decide: Decide, key: ReceiptKey | None) -> Settled:
        """Decide on the game (``known``: the copy from ``game``) and save what was decided."""
        for _ in range(MAX_ATTEMPTS):
            game = known.fork()
            try:
                recorded = decide(game)
            except (RuleViolation, ApiError) as refusal:
                newer = self._newer(known)
                if newer is None:
                    return self._carried_or(refusal, key)
                known = newer
                continue
            if not recorded:
                newer = self._newer(known)
                if newer is None:
                    return Settled(game, [], Outcome.UNCHANGED)
                known = newer
                continue
            try:
                self._save(game, recorded, key, from_version=known.version)
            except IntegrityError:
                carried = self._receipts.carried(key)
                if carried is not None:
                    return Settled.replayed(carried)
                self._troubles.retry("version_conflict")
                known = self._games.fresh(known.id, known)
                continue
            return Settled(game, recorded, Outcome.APPLIED)
        raise TOO_MUCH_CONTENTION("the game changed too often; try again")

    def _newer(self, known: GameAggregate) -> GameAggregate | None:
        """The game as stored, if it is newer than the copy a decision was made on."""
        current = self._games.fresh(known.id, known)
        if current.version == known.version:
            return None
        self._troubles.retry("stale_copy")
        return current

    def _carried_or(self, refusal: Exception, key: ReceiptKey | None) -> Settled:
        """A refusal stands unless the request was carried out before (a retry of it): then
        the original answer."""
        carried = self._receipts.carried(key)
        if carried is None:
            raise refusal
        return Settled.replayed(carried)

    def _save(
        self,
        game: GameAggregate,
        recorded: list[Recorded],
        key: ReceiptKey | None,
        *,
        from_version: int,
    ) -> None:
        """The game's new events and, for a keyed request, its receipt, in one transaction."""
        records: list[Any] = [game]
        if key is not None:
            records.append(Receipts.receipt(key, game, from_version, self._clock()))
        self._store.save(*records)
        self._games.remember(game)
        for listener in self._saved:
            listener(game, recorded)
