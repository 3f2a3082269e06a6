"""The read side of the application: views, event pages, replays, audits, read models."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from domain.aggregate import GameAggregate, Recorded
from domain.deadlines import is_due
from domain.perspective import FULL, Perspective
from domain.variants import VARIANTS, variant_by_id
from projections.audit import AuditReport, audit
from projections.events import event_out
from projections.lobby import LobbyEntry
from projections.replay import frames
from projections.scoreboard import Scoreboard
from projections.views import View, view
from service.auth import Principal
from service.background.read_models import ReadModels
from service.bundle import FORMAT as BUNDLE_FORMAT
from service.bundle import Bundle
from service.errors import ApiError, not_found
from service.perspectives import replay_perspective, viewer_perspective
from service.results import BoardPlace, EventPage, Leaderboard, LobbyPlace, Page, ReplayPage
from service.settings import Settings
from service.store.event_store import Store
from service.store.games import Games

LOBBY_LIMIT = 500


@dataclass(frozen=True)
class GameRead:
    """One read of a game: the game as stored at that moment, who asks and the perspective
    they get. An answer and its validator are made from the same read, so they always agree,
    and the store is asked once."""

    aggregate: GameAggregate
    principal: Principal | None
    viewer: Perspective
    due: bool  # a deadline has passed that no event has applied yet (views count it)

    @property
    def version(self) -> int:
        return self.aggregate.version

    @property
    def chain_head(self) -> str:
        return self.aggregate.chain_head

    @property
    def over(self) -> bool:
        return self.aggregate.state.over


def expiry_due(aggregate: GameAggregate, now: datetime) -> bool:
    """Whether the game's running deadline has passed without an event applying it."""
    state = aggregate.state
    return state.status == "active" and is_due(state.rules.deadline(state.table), now)


class GameQueries:
    """Reads: each answers from the game as stored now (one query to bring this process's copy
    up to date) or from the materialized read models."""

    settings: Settings
    clock: Callable[[], datetime]
    store: Store
    games: Games
    read_models: ReadModels

    def load(self, game_id: UUID) -> GameAggregate:
        return self.games.fresh(game_id)

    def read(
        self, principal: Principal | None, game_id: UUID, perspective: str | None = None
    ) -> GameRead:
        """The game as stored now and the perspective the caller gets: the requested one if it
        is allowed (refused here, as the answer itself would be), else their own."""
        aggregate = self.load(game_id)
        state = aggregate.state
        viewer = (
            viewer_perspective(state, principal)
            if perspective is None
            else replay_perspective(state, principal, perspective)
        )
        return GameRead(aggregate, principal, viewer, expiry_due(aggregate, self.clock()))

    def game_view(self, principal: Principal | None, game_id: UUID) -> View:
        return self.view_in(self.read(principal, game_id))

    def public_view(self, game_id: UUID) -> View:
        return self.game_view(None, game_id)

    def view_in(self, read: GameRead) -> View:
        return self.view_of(read.aggregate, read.viewer)

    def events(
        self, principal: Principal | None, game_id: UUID, *, after: int, limit: int
    ) -> EventPage:
        return self.events_in(self.read(principal, game_id), after=after, limit=limit)

    def events_in(self, read: GameRead, *, after: int, limit: int) -> EventPage:
        aggregate = read.aggregate
        recorded = self.recorded(aggregate.id, after, min(aggregate.version, after + limit))
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
        return audit(str(aggregate.id), self.recorded(aggregate.id, 0, aggregate.version))

    def export_in(self, read: GameRead) -> Bundle:
        """The whole log, every secret included: once the game is over, or for the operator."""
        aggregate, principal = read.aggregate, read.principal
        if not (aggregate.state.over or (principal is not None and principal.admin)):
            raise ApiError(409, "game_not_over", "a game can be exported once it is over")
        recorded = self.recorded(aggregate.id, 0, aggregate.version)
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
        recorded = self.recorded(aggregate.id, 0, stop)
        page = list(frames(recorded, read.viewer, start, stop))
        return ReplayPage(
            game_id=str(aggregate.id),
            perspective=perspective,
            frames=page,
            next_from=stop + 1 if stop < aggregate.version else None,
            head_version=aggregate.version,
        )

    def scoreboard(self, game_id: UUID) -> Scoreboard:
        self._read_your_writes()
        board = self.read_models.scoreboard(game_id)
        if board is None:
            raise not_found("game")
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
        self._read_your_writes()
        return self.read_models.lobby(
            status=status, variant=variant, limit=min(limit, LOBBY_LIMIT), after=after
        )

    def leaderboard(
        self, variant: str | None, *, limit: int, after: dict[str, BoardPlace] | None
    ) -> Page[Leaderboard, dict[str, BoardPlace]]:
        """Each variant's ranked players (or one variant's), ``limit`` rows each. ``after``
        holds where each variant's next rows start; a variant it leaves out was listed to its
        end (its rows are empty). The next page's places hold the variants with more rows."""
        chosen = [variant_by_id(variant)] if variant is not None else list(VARIANTS.values())
        self._read_your_writes()
        boards: list[Leaderboard] = []
        places: dict[str, BoardPlace] = {}
        for rules in chosen:
            if after is not None and rules.id not in after:
                boards.append(Leaderboard(variant=rules.id, rows=[]))
                continue
            page = self.read_models.leaderboard(
                rules.id,
                lower_wins=rules.lower_score_wins,
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
            raise ApiError(403, "players_only", "the operator sits at no game")
        self._read_your_writes()
        return self.read_models.games_of(
            principal.player_id, status=status, limit=limit, after=after
        )

    def _read_your_writes(self) -> None:
        """With in-process read models, answer only once they reflect every write committed
        before this request (bounded: they answer as they stand after a second)."""
        if self.settings.projector == "inline":
            self.read_models.catch_up_to_now(timeout=1.0)

    def ready(self) -> None:
        """Returns if the store answers a read; raises what the store raised otherwise."""
        self.store.writer.ping()

    def recorded(self, game_id: UUID, after: int, until: int) -> list[Recorded]:
        if until <= after:
            return []
        return list(self.store.events.get(game_id, gt=after, lte=until))  # type: ignore[arg-type]

    def view_of(
        self, aggregate: GameAggregate, perspective: Perspective, now: datetime | None = None
    ) -> View:
        """The view as of now: a deadline that has passed counts as applied (the same expiry
        a command sent now would be decided after), recorded or not."""
        return view(
            aggregate.state,
            version=aggregate.version,
            chain_head=aggregate.chain_head,
            perspective=perspective,
            now=now or self.clock(),
        )
