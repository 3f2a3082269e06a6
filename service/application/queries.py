"""The read side: views, event pages, replays, audits and exports of one game, each from the game
as stored now; the lobby, scoreboards and leaderboards from the materialized read models."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from bots.seated import bot_command
from domain.aggregate import GameAggregate
from domain.deadlines import is_due
from domain.game import expiry_due
from domain.perspective import FULL, PUBLIC, Perspective
from domain.variants import VARIANTS, variant_by_id
from projections.audit import AuditReport, audit
from projections.events import event_out
from projections.lobby import LobbyEntry
from projections.replay import frames
from projections.scoreboard import Scoreboard
from projections.views import View, view
from service.application.bundle import FORMAT as BUNDLE_FORMAT
from service.application.bundle import Bundle
from service.application.perspectives import replay_perspective, viewer_perspective
from service.application.results import EventPage, Leaderboard, ReplayPage
from service.application.standby import StandbyReads
from service.auth import Principal
from service.errors import GAME_NOT_FOUND, GAME_NOT_OVER, PLAYERS_ONLY
from service.read_models.models import ReadModels
from service.read_models.pages import BoardPlace, LobbyPlace, Page, RatingPlace
from service.read_models.tables import Tables
from service.store.event_store import Store
from service.store.games import Games

LOBBY_LIMIT = 500
RENDERED_VIEWS = 4096  # views kept for reuse: a few per game in play
FRESH_WITHIN = 1.0  # seconds a read model read waits for the writes committed before it
NOT_OVER = ("waiting", "active")


@dataclass(frozen=True)
class GameRead:
    """One read of a game: the game as stored at that moment, who asks and the perspective
    they get. An answer and its validator are made from the same read, so they always agree,
    and the store is asked once."""

    aggregate: GameAggregate
    principal: Principal | None
    viewer: Perspective
    due: bool  # a deadline has passed that no event has applied yet (views count it)
    store: Store  # where the game's events are read from: the primary, or the standby

    @property
    def version(self) -> int:
        return self.aggregate.version

    @property
    def chain_head(self) -> str:
        return self.aggregate.chain_head

    @property
    def over(self) -> bool:
        return self.aggregate.state.over


def view_of(aggregate: GameAggregate, perspective: Perspective, now: datetime) -> View:
    """The view as of ``now``: a deadline that has passed counts as applied (the same expiry a
    command sent now would be decided after), recorded or not."""
    return view(
        aggregate.state,
        version=aggregate.version,
        chain_head=aggregate.chain_head,
        perspective=perspective,
        now=now,
    )


class RenderedViews:
    """Views rendered once per game, version and perspective, and reused: by a command's answer
    and the next GET of the view at that version from the same seat (and its ETag).

    A view depends on the moment only through a deadline that has passed: one made with a
    pending expiry is never kept, and a kept one is used only while its deadline has not come.
    """

    def __init__(self, capacity: int = RENDERED_VIEWS) -> None:
        self._capacity = capacity
        self._views: OrderedDict[tuple[UUID, int, Perspective], View] = OrderedDict()
        self._lock = threading.Lock()

    def view(self, aggregate: GameAggregate, perspective: Perspective, now: datetime) -> View:
        key = (aggregate.id, aggregate.version, perspective)
        with self._lock:
            kept = self._views.get(key)
            if kept is not None and not is_due(kept.deadline, now):
                self._views.move_to_end(key)
                return kept
        made = view_of(aggregate, perspective, now)
        if not made.expiry_pending:
            with self._lock:
                self._views[key] = made
                while len(self._views) > self._capacity:
                    self._views.popitem(last=False)
        return made


class GameQueries:
    def __init__(
        self,
        store: Store,
        games: Games,
        read_models: ReadModels,
        clock: Callable[[], datetime],
        *,
        wait_for_read_models: bool,
        standby: tuple[StandbyReads, Tables] | None = None,
        views: RenderedViews,
    ) -> None:
        self.views = views
        self._store = store
        self._standby = standby
        self._games = games
        self._read_models = read_models
        self._clock = clock
        self._wait_for_read_models = wait_for_read_models

    # --- one game, as stored now ---------------------------------------------------------------

    def load(self, game_id: UUID) -> GameAggregate:
        """The game as stored now (one query to bring this process's copy up to date)."""
        return self._games.fresh(game_id)

    def read(
        self, principal: Principal | None, game_id: UUID, *, holds: int | None = None
    ) -> GameRead:
        """The game as stored now, as the caller sees it (their seat's view, or a
        spectator's). With ``holds`` (the version the caller has), from the standby if there
        is one and it has that version."""
        aggregate, store = self._load(game_id, holds)
        return self._read(
            aggregate, principal, viewer_perspective(aggregate.state, principal), store
        )

    def read_public(
        self, principal: Principal | None, game_id: UUID, *, holds: int | None = None
    ) -> GameRead:
        """The game as stored now, as anyone sees it."""
        aggregate, store = self._load(game_id, holds)
        return self._read(aggregate, principal, PUBLIC, store)

    def read_as(
        self, principal: Principal | None, game_id: UUID, perspective: str, *, holds: int
    ) -> GameRead:
        """The game as stored now (the standby's if it has ``holds``), from the perspective
        asked for, if the caller may have it (refused here, as the answer itself would be)."""
        aggregate, store = self._load(game_id, holds)
        viewer = replay_perspective(aggregate.state, principal, perspective)
        return self._read(aggregate, principal, viewer, store)

    def _load(self, game_id: UUID, holds: int | None) -> tuple[GameAggregate, Store]:
        if holds is None or self._standby is None:
            return self.load(game_id), self._store
        aggregate, side = self._standby[0].game(game_id, holds)
        return aggregate, side.store

    def _read(
        self,
        aggregate: GameAggregate,
        principal: Principal | None,
        viewer: Perspective,
        store: Store,
    ) -> GameRead:
        due = expiry_due(aggregate.state, self._clock())
        return GameRead(aggregate, principal, viewer, due, store)

    def view_in(self, read: GameRead) -> View:
        return self.views.view(read.aggregate, read.viewer, self._clock())

    def events_in(self, read: GameRead, *, after: int, limit: int) -> EventPage:
        aggregate = read.aggregate
        recorded = read.store.events_between(
            aggregate.id, after, min(aggregate.version, after + limit)
        )
        page = [event_out(event, read.viewer) for event in recorded]
        return EventPage(
            game_id=str(aggregate.id),
            events=page,
            next_after=page[-1].version if page else after,
            head_version=aggregate.version,
        )

    def audit_in(self, read: GameRead) -> AuditReport:
        """The audit report; checks that need the secret seed stay pending until the game ends."""
        aggregate = read.aggregate
        events = read.store.events_between(aggregate.id, 0, aggregate.version)
        return audit(str(aggregate.id), events, bots=bot_command)

    def export_in(self, read: GameRead) -> Bundle:
        """The whole log, every secret included: once the game is over, or for the operator."""
        aggregate, principal = read.aggregate, read.principal
        if not (aggregate.state.over or (principal is not None and principal.admin)):
            raise GAME_NOT_OVER("a game can be exported once it is over")
        recorded = read.store.events_between(aggregate.id, 0, aggregate.version)
        return Bundle(
            format=BUNDLE_FORMAT,
            game_id=str(aggregate.id),
            variant=aggregate.state.variant,
            events=[event_out(event, FULL) for event in recorded],
        )

    def replay_in(
        self, read: GameRead, *, perspective: str, start: int, limit: int, to: int | None = None
    ) -> ReplayPage:
        """Frames from ``start`` to ``to`` (the last event if None), at most ``limit`` of them,
        as the read's perspective (asked for as ``perspective``) may see them."""
        aggregate = read.aggregate
        stop = min(aggregate.version, start + limit - 1, to or aggregate.version)
        recorded = read.store.events_between(aggregate.id, 0, stop)
        page = list(frames(recorded, read.viewer, start, stop))
        return ReplayPage(
            game_id=str(aggregate.id),
            perspective=perspective,
            frames=page,
            next_from=stop + 1 if stop < aggregate.version else None,
            head_version=aggregate.version,
        )

    # --- the read models -------------------------------------------------------------------------

    def scoreboard(self, game_id: UUID) -> Scoreboard:
        self.read_your_writes()
        board = self._read_models.scoreboard(game_id)
        if board is None:
            raise GAME_NOT_FOUND("no such game")
        return board

    def lobby(
        self,
        *,
        status: str | None,
        variant: str | None,
        limit: int = LOBBY_LIMIT,
        after: LobbyPlace | None,
    ) -> Page[LobbyEntry, LobbyPlace]:
        """A page of the lobby, newest first: at most ``limit`` (capped) games after ``after``."""
        if variant is not None:
            variant_by_id(variant)
        self.read_your_writes()
        limit = min(limit, LOBBY_LIMIT)
        if self._standby is not None:
            reads, rows = self._standby
            page = reads.read_model(
                rows,
                self._read_models.position(),
                lambda: rows.lobby(status=status, variant=variant, limit=limit, after=after),
            )
            if page is not None:
                return page
        return self._read_models.lobby(status=status, variant=variant, limit=limit, after=after)

    def leaderboard(
        self,
        variant: str | None,
        *,
        by_rating: bool = False,
        limit: int,
        after: Mapping[str, BoardPlace | RatingPlace] | None,
    ) -> Page[Leaderboard, dict[str, BoardPlace | RatingPlace]]:
        """Each variant's ranked players (or one variant's), ``limit`` rows each, by wins or
        (``by_rating``) by rating. ``after`` holds where each variant's next rows start; a
        variant it leaves out was listed to its end (its rows are empty). The next page's
        places hold the variants with more rows."""
        chosen = [variant_by_id(variant)] if variant is not None else list(VARIANTS.values())
        self.read_your_writes()
        boards: list[Leaderboard] = []
        places: dict[str, BoardPlace | RatingPlace] = {}
        for rules in chosen:
            if after is not None and rules.id not in after:
                boards.append(Leaderboard(variant=rules.id, rows=[]))
                continue
            page = self._read_models.leaderboard(
                rules.id,
                lower_wins=rules.lower_score_wins,
                by_rating=by_rating,
                limit=limit,
                after=None if after is None else after[rules.id],
            )
            boards.append(Leaderboard(variant=rules.id, rows=page.items))
            if page.next is not None:
                places[rules.id] = page.next
        return Page(items=boards, next=places or None)

    def games_of(
        self,
        principal: Principal,
        *,
        status: str | None,
        limit: int,
        after: LobbyPlace | None,
    ) -> Page[LobbyEntry, LobbyPlace]:
        """The games a player sits at (has ever sat at), newest first."""
        if principal.player_id is None:
            raise PLAYERS_ONLY("the operator sits at no game")
        self.read_your_writes()
        return self._read_models.games_of(
            principal.player_id, status=status, limit=limit, after=after
        )

    def games_not_over(self, player_id: str, most: int) -> int:
        """How many games waiting or active the player sits at, counted up to ``most`` of each
        (as the read models know them: a game formed a moment ago may not count yet)."""
        self.read_your_writes()
        return sum(
            len(self._read_models.games_of(player_id, status=status, limit=most, after=None).items)
            for status in NOT_OVER
        )

    def read_your_writes(self) -> None:
        """With in-process read models, answer once they reflect every write committed before
        this request (bounded: they answer as they stand after a second)."""
        if self._wait_for_read_models:
            self._read_models.wait_for_log(timeout=FRESH_WITHIN)

    def ready(self) -> None:
        """Returns if the store answers a read; raises what the store raised otherwise."""
        self._store.writer.ping()
