"""Reads about one game: its summary, views, events, replays, audit, export, and its live
stream. Each answer carries an ETag and says how long it may be cached."""

from __future__ import annotations

import weakref
from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Request, Response, get
from litestar.concurrency import sync_to_thread
from litestar.datastructures import State
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent

from projections.audit import AuditReport
from projections.scoreboard import Scoreboard
from projections.views import View
from service.auth import Principal
from service.bundle import Bundle
from service.errors import ApiError
from service.http.caching import Validator
from service.http.callers import MAX_VERSION, caller, ledger, optional_caller
from service.http.limits import StreamSlots
from service.http.paging import next_link
from service.live.streams import game_stream
from service.numbers import whole_number
from service.queries import GameRead
from service.results import EventPage, ReplayPage

GAME_STATUSES = ("waiting", "active", "finished", "cancelled")
MAX_PAGE = 500
MAX_FRAMES = 200


def checked_status(status: str | None) -> str | None:
    if status is not None and status not in GAME_STATUSES:
        raise ApiError(422, "invalid_status", f"status is one of {', '.join(GAME_STATUSES)}")
    return status


def next_events(request: Request[Any, Any, Any], page: EventPage) -> dict[str, str]:
    """A Link to the events after this page, while the game holds more of them."""
    if page.next_after >= page.head_version:
        return {}
    return next_link(request, "after", page.next_after)


def next_frames(
    request: Request[Any, Any, Any], page: ReplayPage, to: int | None
) -> dict[str, str]:
    """A Link to the frames after this page, while the range asked for holds more of them."""
    if page.next_from is None or (to is not None and page.next_from > to):
        return {}
    return next_link(request, "from", page.next_from)


def validator(
    request: Request[Any, Any, Any],
    state: State,
    game_id: UUID,
    *extra: object,
    perspective: str | None = None,
) -> tuple[GameRead, Validator]:
    """The game as the caller may read it now, and the validator of the answer made from that
    read: the game's head, the perspective they get, the query."""
    read = ledger(state).read(caller(request, state, required=False), game_id, perspective)
    parts = (read.version, read.chain_head, read.viewer, read.due, request.url.path, *extra)
    return read, Validator(*parts, over=read.over)


class GameReads(Controller):
    path = "/games"
    tags = ["games"]

    @get(
        "/{game_id:uuid}",
        operation_id="getGame",
        summary="Public summary of a game",
        sync_to_thread=True,
    )
    def summary(
        self, request: Request[Any, Any, Any], state: State, game_id: FromPath[UUID]
    ) -> Response[View]:
        read, check = validator(request, state, game_id, perspective="public")
        return check.answer(request, lambda: ledger(state).view_in(read))

    @get(
        "/{game_id:uuid}/view",
        operation_id="getView",
        summary="Your view of the game",
        sync_to_thread=True,
    )
    def view(
        self, request: Request[Any, Any, Any], state: State, game_id: FromPath[UUID]
    ) -> Response[View]:
        read, check = validator(request, state, game_id)
        return check.answer(request, lambda: ledger(state).view_in(read))

    @get(
        "/{game_id:uuid}/events",
        operation_id="listEvents",
        summary="Events after a version, as you may see them",
        sync_to_thread=True,
    )
    def events(
        self,
        request: Request[Any, Any, Any],
        state: State,
        game_id: FromPath[UUID],
        after: Annotated[int, QueryParameter(ge=0, le=MAX_VERSION)] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = 100,
    ) -> Response[EventPage]:
        read, check = validator(request, state, game_id, after, limit)
        return check.answer(
            request,
            lambda: ledger(state).events_in(read, after=after, limit=limit),
            lambda page: next_events(request, page),
        )

    @get(
        "/{game_id:uuid}/scoreboard",
        operation_id="getScoreboard",
        summary="Scores per hand, totals and ranking",
        sync_to_thread=True,
    )
    def scoreboard(self, state: State, game_id: FromPath[UUID]) -> Scoreboard:
        return ledger(state).scoreboard(game_id)

    @get(
        "/{game_id:uuid}/stream",
        operation_id="streamGame",
        summary="Server-Sent Events: your view of each new event, live; resumable",
    )
    async def stream(
        self,
        request: Request[Any, Any, Any],
        state: State,
        game_id: FromPath[UUID],
        ticket: Annotated[str | None, QueryParameter(required=False)] = None,
        after: Annotated[int | None, QueryParameter(required=False, ge=0, le=MAX_VERSION)] = None,
        last_event_id: Annotated[
            str | None, HeaderParameter(name="Last-Event-ID", required=False)
        ] = None,
    ) -> ServerSentEvent:
        app = ledger(state)
        who: Principal | None
        if ticket is not None:
            who = await sync_to_thread(app.ticket_holder, ticket, game_id)
        else:
            who = await sync_to_thread(optional_caller, request, state)
        await sync_to_thread(app.load, game_id)
        resume = after or 0
        if last_event_id is not None:
            resumed = whole_number(last_event_id.strip())
            if resumed is None:
                raise ApiError(400, "invalid_last_event_id", "Last-Event-ID is an event version")
            resume = resumed
        slots: StreamSlots = state.streams
        give_back = slots.take(request, who.player_id or "admin" if who else None)
        stream = game_stream(app, who, game_id, resume, on_end=give_back)
        weakref.finalize(stream, give_back)  # a stream that never started gives its slot back too
        return ServerSentEvent(stream)

    @get(
        "/{game_id:uuid}/replay",
        operation_id="replayGame",
        summary="One frame per event (the event and the table after it) from a perspective",
        sync_to_thread=True,
    )
    def replay(
        self,
        request: Request[Any, Any, Any],
        state: State,
        game_id: FromPath[UUID],
        perspective: Annotated[str, QueryParameter()] = "public",
        start: Annotated[int, QueryParameter(name="from", ge=1, le=MAX_VERSION)] = 1,
        to: Annotated[int | None, QueryParameter(required=False, ge=1, le=MAX_VERSION)] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_FRAMES)] = 100,
    ) -> Response[ReplayPage]:
        if to is not None and to < start:
            raise ApiError(422, "invalid_range", "to is a version at or after from")
        read, check = validator(request, state, game_id, start, to, limit, perspective=perspective)
        return check.answer(
            request,
            lambda: ledger(state).replay_in(
                read, perspective=perspective, start=start, to=to, limit=limit
            ),
            lambda page: next_frames(request, page, to),
        )

    @get(
        "/{game_id:uuid}/audit",
        operation_id="auditGame",
        summary="Verification report: chain, seed, every decision re-run, scores",
        sync_to_thread=True,
    )
    def audit(
        self, request: Request[Any, Any, Any], state: State, game_id: FromPath[UUID]
    ) -> Response[AuditReport]:
        read, check = validator(request, state, game_id, perspective="public")
        return check.answer(request, lambda: ledger(state).audit_in(read))

    @get(
        "/{game_id:uuid}/export",
        operation_id="exportGame",
        summary="The whole log as a bundle that `cardledger verify` checks offline",
        sync_to_thread=True,
    )
    def export(
        self, request: Request[Any, Any, Any], state: State, game_id: FromPath[UUID]
    ) -> Response[Bundle]:
        read, check = validator(request, state, game_id)
        if not check.over:
            return Response(ledger(state).export_in(read))  # the operator's: it will grow
        return check.answer(request, lambda: ledger(state).export_in(read))
