"""Quick match: join a variant's queue, leave it, see where you stand; the tables are formed
in the same write as the entry that completes them (or, for bots, by the background timer).

Every write to a queue is decided on the queue as stored and saved with the games it seats in
one transaction; the store refuses a second write at the same queue version, so a racing write
is decided again on the newer queue and no entry is ever seated twice (docs/matchmaking.md).
"""

from __future__ import annotations

import random
import secrets
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any, Literal, Protocol

import msgspec
from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from bots.levels import available_levels
from domain import game
from domain.aggregate import GameAggregate, project
from domain.fairness import SEED_BYTES
from domain.matchmaking import queue as queues
from domain.matchmaking.entries import QueueState
from domain.matchmaking.matching import Table, form_tables
from domain.matchmaking.queue import JoinRequest, QueueAggregate
from domain.seating import SeatedBot
from domain.variants import VARIANTS, variant_by_id
from service.application.commands import bot_seat, new_command_id, receipt_key, seat_holder
from service.application.queries import GameQueries
from service.auth import Principal
from service.errors import IDEMPOTENCY_KEY_REUSED, TOO_MANY_GAMES, TOO_MUCH_CONTENTION
from service.store.event_store import Store
from service.store.games import Games
from service.store.queues import Queues
from service.store.receipts import Idempotency, ReceiptKey
from service.store.records import QueueReceipt, Record
from service.store.troubles import UNHEARD, Troubles

MAX_ATTEMPTS = 32  # racing joins of one queue each win in turn: more tries than a game's
BACKOFF_SECONDS = 0.002  # times the attempt, jittered: racers spread out instead of clashing


class Ratings(Protocol):
    """Where a player's rating comes from (the ratings read model, once merged)."""

    def rating_of(self, player_id: str, variant: str) -> float:
        """The player's rating in ``variant``; an unrated player gets the source's default."""
        ...


class NeutralRatings:
    """Everyone rated alike: matching is then by waiting time alone."""

    def rating_of(self, player_id: str, variant: str) -> float:
        return 0.0


class BotWait(msgspec.Struct, frozen=True, kw_only=True):
    """After ``after`` seconds in the queue, the free seats may go to bots of ``level``."""

    after: float
    level: int


class QueueStatus(msgspec.Struct, frozen=True, kw_only=True):
    """Where a player stands in a variant's queue: ``waiting`` (since ``joined_at``, for these
    seats and options) or ``matched`` (seated at ``game_id``, the queue's latest table for
    them)."""

    variant: str
    status: Literal["waiting", "matched"]
    game_id: str | None = None
    joined_at: datetime | None = None
    min_seats: int | None = None
    max_seats: int | None = None
    options: dict[str, Any] | None = None
    rating: float | None = None
    rating_band: float | None = None
    bots: BotWait | None = None
    queue_length: int


def status_of(state: QueueState, player_id: str) -> QueueStatus | None:
    entry = state.waiting.get(player_id)
    if entry is not None:
        joined = entry.joined
        bots = None
        if joined.bots_after is not None and joined.bot_level is not None:
            bots = BotWait(after=joined.bots_after, level=joined.bot_level)
        return QueueStatus(
            variant=state.variant,
            status="waiting",
            joined_at=entry.joined_at,
            min_seats=joined.min_seats,
            max_seats=joined.max_seats,
            options=joined.options,
            rating=joined.rating,
            rating_band=joined.rating_band,
            bots=bots,
            queue_length=len(state.waiting),
        )
    game_id = state.matched.get(player_id)
    if game_id is None:
        return None
    return QueueStatus(
        variant=state.variant,
        status="matched",
        game_id=game_id,
        queue_length=len(state.waiting),
    )


def answer_of(queue: QueueAggregate, player_id: str) -> QueueStatus:
    """A join's answer: the player's entry, or the table it completed."""
    found = status_of(queue.state, player_id)
    assert found is not None  # a join leaves the player waiting or matched
    return found


Decide = Callable[[QueueAggregate, datetime], list[GameAggregate | Record]]
"""Records its events on the queue it is given; returns what to save with it: the games of the
tables it formed and any receipt."""


class Answered(Exception):
    """A keyed request was carried out before: its answer, as it was given."""

    def __init__(self, answer: QueueStatus) -> None:
        super().__init__("answered before")
        self.answer = answer


class Matchmaking:
    def __init__(
        self,
        store: Store,
        games: Games,
        queries: GameQueries,
        clock: Callable[[], datetime],
        *,
        capacity: int,
        max_active_games: int,
        ratings: Ratings | None = None,
        troubles: Troubles = UNHEARD,
    ) -> None:
        self._store = store
        self._troubles = troubles
        self._games = games
        self._queries = queries
        self._clock = clock
        self.queues = Queues(store, clock)
        self.capacity = capacity
        self.max_active_games = max_active_games
        self.ratings: Ratings = ratings or NeutralRatings()

    def join(
        self,
        principal: Principal,
        variant: str,
        *,
        min_seats: int | None,
        max_seats: int | None,
        options: dict[str, Any] | None,
        rating_band: float | None,
        bots: BotWait | None,
        client_seed: str,
        idempotency: Idempotency | None = None,
    ) -> QueueStatus:
        """Wait in the variant's queue; seated at once if that completes a table. A keyed
        join carried out before is answered as it was then, and writes nothing."""
        player_id = seat_holder(principal)
        variant_id = variant_by_id(variant).id
        key = receipt_key(principal, f"queue:{variant_id}", idempotency)
        try:
            self._check_answered(key)
        except Answered as answered:
            return answered.answer
        if bots is not None:
            bot_seat(variant_id, bots.level)  # 422 unknown_level
        check_room(self._queries, player_id, self.max_active_games, whose="you sit")
        request = JoinRequest(
            player_id=player_id,
            name=principal.name,
            min_seats=min_seats,
            max_seats=max_seats,
            options=options,
            rating=self.ratings.rating_of(player_id, variant_id),
            rating_band=rating_band,
            bots_after=None if bots is None else bots.after,
            bot_level=None if bots is None else bots.level,
            client_seed=client_seed,
        )

        def decide(queue: QueueAggregate, now: datetime) -> list[GameAggregate | Record]:
            self._check_answered(key)  # again: a racing retry with the key may have won
            queue.record(queues.join(queue.state, request, capacity=self.capacity), now)
            saved: list[GameAggregate | Record] = [*self._seat(queue, now)]
            if key is not None:
                answer = msgspec.to_builtins(answer_of(queue, player_id))
                receipt = QueueReceipt(request_digest=key.idempotency.digest, answer=answer)
                saved.append(Record.new(key.receipt_id, receipt, now))
            return saved

        try:
            queue, _ = self._settle(variant_id, decide)
        except Answered as answered:
            return answered.answer
        return answer_of(queue, player_id)

    def leave(self, principal: Principal, variant: str) -> None:
        player_id = seat_holder(principal)
        variant_id = variant_by_id(variant).id

        def decide(queue: QueueAggregate, now: datetime) -> list[GameAggregate | Record]:
            queue.record(queues.leave(queue.state, player_id), now)
            return []  # a leave completes no table (a wait for bots that has passed: fill's)

        self._settle(variant_id, decide)

    def status(self, principal: Principal) -> list[QueueStatus]:
        """The player's place in every queue they wait in or were last matched from."""
        player_id = seat_holder(principal)
        found = [status_of(self.queues.current(v).state, player_id) for v in VARIANTS]
        return [status for status in found if status is not None]

    def fill(self, variant_id: str) -> int:
        """Form every table the variant's queue allows now (bots whose wait has passed);
        returns how many were formed."""
        _, formed = self._settle(variant_id, lambda queue, now: [*self._seat(queue, now)])
        return formed

    def waiting(self) -> list[QueueState]:
        """Every variant's queue as stored now (the bot-fill timer starts from them)."""
        return [self.queues.current(variant_id).state for variant_id in VARIANTS]

    def _check_answered(self, key: ReceiptKey | None) -> None:
        """Raise ``Answered`` if the keyed request was carried out before; a different request
        with the same key is refused (422 ``idempotency_key_reused``)."""
        if key is None:
            return
        try:
            record: Any = self._store.repository.get(key.receipt_id, projector_func=project)
        except AggregateNotFoundError:
            return
        receipt = record.payload
        if (
            not isinstance(receipt, QueueReceipt)
            or receipt.request_digest != key.idempotency.digest
        ):
            raise IDEMPOTENCY_KEY_REUSED("this Idempotency-Key was used with a different request")
        raise Answered(msgspec.convert(receipt.answer, QueueStatus))

    def _settle(self, variant_id: str, decide: Decide) -> tuple[QueueAggregate, int]:
        """Decide on the queue as stored and save it with the games of the tables formed in
        one transaction; a clash with a racing write is decided again. Returns the queue after
        the write and how many tables it formed."""
        for attempt in range(MAX_ATTEMPTS):
            queue = self.queues.fresh(variant_id)
            now = self._clock()
            saved = decide(queue, now)
            if not queue.pending_events:
                return queue, 0
            try:
                self._store.save(queue, *saved)
            except IntegrityError:
                self._troubles.retry("queue_conflict")
                time.sleep(BACKOFF_SECONDS * (attempt + 1) * random.random())
                continue
            self.queues.remember(queue)  # from here on only read
            games = [record for record in saved if isinstance(record, GameAggregate)]
            for seated in games:
                self._games.remember(seated)
            return queue, len(games)
        raise TOO_MUCH_CONTENTION("the queue changed too often; try again")

    def _seat(self, queue: QueueAggregate, now: datetime) -> list[GameAggregate]:
        """Form every table the queue allows at ``now``: each game, and its record on the queue."""
        seated = []
        for table in form_tables(list(queue.state.waiting.values()), now):
            game_id = uuid.uuid4()
            seated.append(seat_table(table, queue.state.variant, game_id, now))
            queue.record(queues.formed(table, str(game_id)), now)
        return seated


def check_room(queries: GameQueries, player_id: str, most: int, *, whose: str) -> None:
    """Refuse (409 ``too_many_games``) a player who already sits at ``most`` games not over;
    ``whose`` begins the message ("you sit", or another player's name and "sits")."""
    seated = queries.games_not_over(player_id, most)
    if seated >= most:
        raise TOO_MANY_GAMES(f"{whose} at {seated} games not over; the most is {most}", most=most)


def nearest_level(variant_id: str, level: int) -> int:
    """``level`` if the variant still has bots of it, else its nearest level (the lower one of
    two as near): an entry that waited through a release that dropped its level still gets
    its table, and never stops the queue from forming others."""
    levels = available_levels(variant_id)
    return min(levels, key=lambda known: (abs(known - level), known))


def seat_table(table: Table, variant_id: str, game_id: uuid.UUID, now: datetime) -> GameAggregate:
    """The game of a table: created by its first player (seat 0), the bots after the players'
    seats, then each other player joining; the last seat taken starts it."""
    players = [entry.joined for entry in table.players]
    first = players[0]
    bots = []
    if table.bot_level is not None:
        level = nearest_level(variant_id, table.bot_level)
        bots = [
            SeatedBot(bot=bot_seat(variant_id, level), seat=seat)
            for seat in range(len(players), table.seat_count)
        ]
    events = game.create(
        game_id=str(game_id),
        variant_id=variant_id,
        seat_count=table.seat_count,
        options=first.options,
        creator_id=first.player_id,
        creator_name=first.name,
        client_seed=first.client_seed,
        seed=secrets.token_bytes(SEED_BYTES),
        bots=bots,
        now=now,
        matched_by=str(queues.queue_id(variant_id)),
    )
    seated = GameAggregate.open(
        game_id, events, actor="seat:0", command_id=new_command_id(), now=now
    )
    for player in players[1:]:
        seated.join(
            player_id=player.player_id,
            name=player.name,
            client_seed=player.client_seed,
            command_id=new_command_id(),
            now=now,
        )
    return seated
