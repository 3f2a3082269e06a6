"""Materialized read models: the lobby, per-game scoreboards and the leaderboard.

They live in the store's own database, fed from the notification log by folding the events it
holds onto each game's state (kept in memory, loaded once per game when a process first meets
it). Each batch's rows and the log position they reflect commit in one transaction, and the
position moves by compare-and-set, so however many runners follow the log, every event counts
exactly once. `rebuild` starts over from position 0 and must arrive at the same rows.

A read that must reflect every write committed before it waits for the position to pass
them (``wait_for_log``); the folding is the projector's work, never the reader's.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import IntegrityError

from domain.aggregate import GameAggregate, Recorded, project
from domain.events import GameCreated, GameFinished
from domain.game_state import GameState
from domain.matchmaking.rematch import Rematched, RematchOffered
from projections.command_runs import RunCollector, whole_runs
from projections.lobby import LeaderboardRow, LobbyEntry, lobby_entry, results
from projections.player_messages import Addressed, PlayerMessage, messages_of, offer_messages
from projections.ratings import Rating, participants, rate_game, ratings_after
from projections.scoreboard import Scoreboard, scoreboard
from service.read_models.pages import BoardPlace, LobbyPlace, Page, RatingPlace
from service.read_models.rating_tables import CurrentRating, RatedGame
from service.read_models.tables import GameRow, Running, Tables
from service.store.event_store import Store
from service.store.readers.changes import Changes

BATCH = 500
POLL_SECONDS = 0.005  # a waiting read looks at the position this often (a projector elsewhere)
HOLDUP_REPORT_SECONDS = 60.0  # a read that gave up names what held it at most this often

log = logging.getLogger("cardledger.read_models")


class _Stale(Exception):
    """Another runner moved the position first; read it again."""


class ReadModels:
    def __init__(self, store: Store, *, capacity: int) -> None:
        self.store = store
        self.tables = Tables(store)
        self._capacity = capacity
        self._folds: OrderedDict[UUID, GameAggregate] = OrderedDict()
        self._lock = threading.Lock()
        self._moved = threading.Condition()  # this process moved the position
        self._holdup_reported = -HOLDUP_REPORT_SECONDS
        # Where this process's last batch moved the position (None: read it from the store).
        # A batch's compare-and-set finds the position moved by anyone else, and an empty read
        # forgets it, so a position reset elsewhere (a rebuild) is seen within a poll.
        self._moved_to: int | None = None
        # Those who act on players' messages (live player streams, the webhooks' deliverer) are
        # woken when this process has written some: most moves of the rows write none.
        self.messages_written = Changes()

    # --- following the log -----------------------------------------------------------------------

    def position(self) -> int:
        return self.tables.position()

    def catch_up(self) -> int:
        """Apply every notification not yet reflected; returns how many were applied."""
        applied = 0
        with self._lock:
            while True:
                try:
                    count, more = self._step()
                except _Stale:
                    self._moved_to = None
                    continue  # folds stay valid: each is checked against the event's version
                applied += count
                if not more:
                    return applied

    def wait_for_log(self, *, timeout: float) -> None:
        """Return once the rows reflect every game event committed before this call, or after
        ``timeout`` seconds (the rows answer as they stand then). The projector, here or in
        another process, does the work; a write wakes it."""
        target = self.store.recorder.max_notification_id() or 0
        give_up = time.monotonic() + timeout
        while not self._reflects(target):
            left = give_up - time.monotonic()
            if left <= 0:
                self._report_holdup()
                return
            with self._moved:
                self._moved.wait(min(left, POLL_SECONDS))

    def _report_holdup(self) -> None:
        """Say what a read gave up waiting for, if a writer in flight holds the log back."""
        now = time.monotonic()
        if now - self._holdup_reported < HOLDUP_REPORT_SECONDS:
            return
        holdup = self.store.writer.holdup()
        if holdup is not None:
            self._holdup_reported = now
            log.warning(
                "reads answer without the newest games: the log is readable only below %s,"
                " which has written to the events table and not ended",
                holdup.describe(),
            )

    def _reflects(self, target: int) -> bool:
        """Whether the rows reflect every game event up to ``target``: the log is readable
        that far (on PostgreSQL, up to the oldest write in flight) and holds none of them past
        the position."""
        if self.store.writer.horizon() <= target:
            return False
        following = self.store.projected_notifications(self.position(), 1)
        return not following or following[0].id > target

    def _step(self) -> tuple[int, bool]:
        """Apply the next batch: how many events it applied, and whether more may follow."""
        position = self.position() if self._moved_to is None else self._moved_to
        batch = self.store.projected_notifications(position, BATCH, reader=self)
        if not batch:
            self._moved_to = None
            return 0, False
        decoded = [
            (notification.id, self.store.decode_projected(notification)) for notification in batch
        ]
        if len(batch) == BATCH:  # the next batch starts with the last command's first event
            decoded = whole_runs(decoded)
        folded: dict[UUID, GameAggregate] = {}
        entered: dict[UUID, GameState | None] = {}  # each game as the batch found it
        finished: list[tuple[int, UUID]] = []  # the log position of each game's end
        runs = RunCollector()
        offers: list[tuple[int, Addressed]] = []
        rematches: list[tuple[UUID, str]] = []  # (ended game, the rematch made of it)
        for at, event in decoded:
            if isinstance(event, Rematched):
                offers += [(at, sent) for sent in self._offer_messages(at, event, folded)]
                continue
            game_id = event.originator_id
            known = folded.get(game_id) or self._folds.get(game_id)
            before, folded[game_id] = self._fold(known, event)
            entered.setdefault(game_id, before)
            runs.add(at, event, before, folded[game_id])
            if isinstance(event.payload, GameFinished):
                finished.append((at, game_id))
            elif isinstance(event.payload, GameCreated) and event.payload.rematch_of is not None:
                rematches.append((UUID(event.payload.rematch_of), str(game_id)))
        moved_to = decoded[-1][0]

        # Rows are made before the transaction: on PostgreSQL every reader of the log waits for
        # the oldest transaction in flight, so this one must be short.
        rows = [self._rows(aggregate) for aggregate in folded.values()]
        rows += [self._rows(self._ended(old, folded), rematch=new) for old, new in rematches]
        seats = [  # of the games whose seats the batch changed: the others' are written
            (seat.player_id, str(game_id))
            for game_id, aggregate in folded.items()
            if (old := entered[game_id]) is None or old.seats != aggregate.state.seats
            for _, seat in aggregate.state.taken
            if seat.bot is None  # a bot has no games of its own to list
        ]
        counted = [result for _, game_id in finished for result in results(folded[game_id].state)]
        rated, ratings = self._rate([(end, folded[game_id].state) for end, game_id in finished])
        messages = [(run.position, sent) for run in runs.done() for sent in messages_of(run)]
        messages += offers

        def write(cursor: Any) -> None:
            self.tables.move(cursor, position, moved_to)
            self.tables.write_games(cursor, rows)
            self.tables.seat(cursor, seats)
            self.tables.count(cursor, counted)
            self.tables.ratings.record(cursor, rated, ratings)
            self.tables.messages.record(cursor, messages)

        try:
            self.store.transact_at_once(write)
        except IntegrityError:
            if self.position() == position:
                raise  # not the compare-and-set's: a row broke a constraint
            raise _Stale from None
        self._moved_to = moved_to
        self._remember(folded)
        with self._moved:
            self._moved.notify_all()
        if messages:
            self.messages_written.notify()
        return len(decoded), len(batch) == BATCH

    def _rate(
        self, ended: list[tuple[int, GameState]]
    ) -> tuple[list[RatedGame], dict[tuple[str, str], Rating]]:
        """The batch's rated games in the order they ended, each from the ratings the games
        before it left, and the ratings after the last (keyed by variant and rated id).

        The ratings are read before the write transaction (which must stay short): they are
        the ones as of ``position`` because every change to them moves the position, and a
        runner that moved it since makes this batch's compare-and-set fail (``_Stale``)."""
        games = [(end, state, participants(state)) for end, state in ended]
        current = self.tables.ratings.current(
            (state.variant, seat.rated_id) for _, state, seats in games for seat in seats
        )
        rated: list[RatedGame] = []
        changed: dict[tuple[str, str], Rating] = {}
        for end, state, seats in games:
            if not seats:
                continue  # void: cancelled
            variant = state.variant
            known = {
                seat.rated_id: current[variant, seat.rated_id]
                for seat in seats
                if (variant, seat.rated_id) in current
            }
            rated_seats = rate_game(seats, known)
            for rated_id, rating in ratings_after(rated_seats).items():
                current[variant, rated_id] = changed[variant, rated_id] = rating
            rated.append(
                RatedGame(position=end, game_id=state.game_id, variant=variant, seats=rated_seats)
            )
        return rated, changed

    def _offer_messages(
        self, at: int, event: Rematched, folded: dict[UUID, GameAggregate]
    ) -> list[Addressed]:
        """The messages of a rematch offer (its other answers tell nobody anything)."""
        offer = event.payload
        if not isinstance(offer, RematchOffered):
            return []
        ended = self._ended(UUID(offer.game_id), folded)
        return offer_messages(at, event.timestamp, offer, ended.state, ended.version)

    def _ended(self, game_id: UUID, folded: dict[UUID, GameAggregate]) -> GameAggregate:
        """A game that has ended (an ended game changes no more: as stored now, it is as it
        ended)."""
        ended = folded.get(game_id) or self._folds.get(game_id)
        if ended is None:
            ended = project(None, self.store.events.get(game_id))
        assert ended is not None
        return ended

    def _fold(
        self, known: GameAggregate | None, event: Recorded
    ) -> tuple[GameState | None, GameAggregate]:
        """The game's state just before ``event`` (loaded if not in memory), and the game
        after it."""
        if known is None or known.version != event.originator_version - 1:
            known = self._load(event.originator_id, event.originator_version - 1)
        start = None if known is None else known.fork()
        aggregate = project(start, [event])
        assert aggregate is not None
        return (None if known is None else known.state), aggregate

    def _load(self, game_id: UUID, version: int) -> GameAggregate | None:
        if version == 0:
            return None
        events = self.store.events.get(game_id, lte=version)
        return project(None, events)

    def _remember(self, folded: dict[UUID, GameAggregate]) -> None:
        for game_id, aggregate in folded.items():
            self._folds[game_id] = aggregate
            self._folds.move_to_end(game_id)
        while len(self._folds) > self._capacity:
            self._folds.popitem(last=False)

    @staticmethod
    def _rows(aggregate: GameAggregate, rematch: str | None = None) -> GameRow:
        """The game's row; ``rematch``: the game made as its rematch (the row of an ended game
        is written again when one is)."""
        state = aggregate.state
        entry = lobby_entry(
            state,
            version=aggregate.version,
            created_at=aggregate.created_on,
            updated_at=aggregate.modified_on,
            rematch=rematch,
        )
        deadline = state.rules.deadline(state.table) if state.status == "active" else None
        return GameRow(
            game_id=entry.game_id,
            variant=entry.variant,
            status=entry.status,
            created_at=entry.created_at.isoformat(),
            deadline=deadline.isoformat() if deadline is not None else None,
            entry=msgspec.json.encode(entry).decode(),
            scoreboard=msgspec.json.encode(scoreboard(state)).decode(),
            bots=any(seat.bot is not None for _, seat in state.taken),
        )

    def rebuild(self) -> int:
        """Forget every row and the position, then follow the log again from the start."""
        self.reset()
        return self.catch_up()

    def reset(self) -> None:
        """Forget every row and the position, in one transaction."""
        with self._lock:
            self.store.transact(self.tables.clear)
            self._folds.clear()
            self._moved_to = None

    # --- queries ---------------------------------------------------------------------------------

    def lobby(
        self, *, status: str | None, variant: str | None, limit: int, after: LobbyPlace | None
    ) -> Page[LobbyEntry, LobbyPlace]:
        return self.tables.lobby(status=status, variant=variant, limit=limit, after=after)

    def running(self) -> Running:
        """The position and, as of it, every game's running deadline and the games not yet
        over that seat a bot (one snapshot)."""
        return self.tables.running()

    def scoreboard(self, game_id: UUID) -> Scoreboard | None:
        return self.tables.scoreboard(game_id)

    def games_of(
        self, player_id: str, *, status: str | None, limit: int, after: LobbyPlace | None
    ) -> Page[LobbyEntry, LobbyPlace]:
        return self.tables.games_of(player_id, status=status, limit=limit, after=after)

    def messages_of(
        self, player_id: str, *, after: tuple[int, str], limit: int
    ) -> list[PlayerMessage]:
        """A player's messages after the id ``after`` (position, kind), oldest first."""
        return self.tables.messages.of(player_id, after, limit)

    def latest_message(self, player_id: str) -> tuple[int, str] | None:
        return self.tables.messages.latest(player_id)

    def messages_since(self, position: int, limit: int) -> list[tuple[int, str]]:
        """(position, player id) of the messages past ``position``: who has news."""
        return self.tables.messages.since(position, limit)

    def newest_message_position(self) -> int:
        return self.tables.messages.newest_position()

    def rating_of(self, player_id: str, variant: str) -> CurrentRating | None:
        """A player's (or a bot level's rated id's) current rating in a variant; None before
        their first rated game there (then ``projections.ratings.NEW`` applies)."""
        return next(
            (found for found in self.tables.ratings.of(player_id) if found.variant == variant),
            None,
        )

    def ratings_of(self, rated_id: str) -> list[CurrentRating]:
        return self.tables.ratings.of(rated_id)

    def rated_games(
        self, rated_id: str, variant: str, *, after: int = 0, limit: int | None = None
    ) -> list[RatedGame]:
        return self.tables.ratings.games_of(rated_id, variant, after=after, limit=limit)

    def all_ratings(self) -> list[CurrentRating]:
        return self.tables.ratings.everyone()

    def leaderboard(
        self,
        variant: str,
        *,
        lower_wins: bool,
        by_rating: bool,
        limit: int,
        after: BoardPlace | RatingPlace | None,
    ) -> Page[LeaderboardRow, BoardPlace | RatingPlace]:
        return self.tables.leaderboard(
            variant, lower_wins=lower_wins, by_rating=by_rating, limit=limit, after=after
        )
