"""Reads about one game: its summary, views, events, replays, audit, export, and its live
stream. Each answer carries an ETag and says how long it may be cached."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Request, Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent

from projections.audit import AuditReport
from projections.scoreboard import Scoreboard
from projections.views import View
from service.application import Cardledger
from service.application.bundle import Bundle
from service.application.queries import GameRead
from service.application.results import EventPage, ReplayPage
from service.auth import Principal
from service.errors import (
    GAME_NOT_FOUND,
    GAME_NOT_OVER,
    INVALID_LAST_EVENT_ID,
    INVALID_PERSPECTIVE,
    INVALID_RANGE,
    PERSPECTIVE_FORBIDDEN,
    TOO_MANY_STREAMS,
)
from service.http.bodies import MAX_PAGE
from service.http.caching import Validator, held_version
from service.http.contract import Token, declare
from service.http.dependencies import MAX_VERSION
from service.http.limits import StreamSlots, live_answer
from service.http.paging import next_link
from service.http.routes.off_loop import off_loop
from service.live.streams import Live
from service.numbers import whole_number
from service.threads import on_thread

MAX_FRAMES = 200
HOLDS = (
    "a version of the game you already hold (from a command's answer, say): the answer is of"
    " that version or a newer one, whichever database serves it"
)
MinVersion = Annotated[int, QueryParameter(ge=0, le=MAX_VERSION, description=HOLDS)]
READ = declare(Token.OPTIONAL, GAME_NOT_FOUND, cached=True)  # one game, as the caller may see it


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


def holds(request: Request[Any, Any, Any], *known: int) -> int:
    """The newest version the client holds: one it names, or one in an ETag it sends back."""
    return max(held_version(request), *known)


def validator(request: Request[Any, Any, Any], read: GameRead, *extra: object) -> Validator:
    """The validator of an answer made from a read: the game's head, the perspective the
    caller gets, the query."""
    parts = (read.version, read.chain_head, read.viewer, read.due, request.url.path, *extra)
    return Validator(*parts, over=read.over, version=read.version)


class GameReadsController(Controller):
    path = "/games"
    tags = ["games"]

    @get(
        "/{game_id:uuid}",
        operation_id="getGame",
        summary="Public summary of a game",
        **READ,
    )
    @off_loop
    def summary(
        self,
        request: Request[Principal | None, Any, Any],
        ledger: NamedDependency[Cardledger],
        game_id: FromPath[UUID],
    ) -> Response[View]:
        read = ledger.queries.read_public(request.user, game_id)
        return validator(request, read).answer(request, lambda: ledger.queries.view_in(read))

    @get(
        "/{game_id:uuid}/view",
        operation_id="getView",
        summary="Your view of the game",
        **READ,
    )
    @off_loop
    def view(
        self,
        request: Request[Principal | None, Any, Any],
        ledger: NamedDependency[Cardledger],
        game_id: FromPath[UUID],
    ) -> Response[View]:
        read = ledger.queries.read(request.user, game_id)
        return validator(request, read).answer(request, lambda: ledger.queries.view_in(read))

    @get(
        "/{game_id:uuid}/events",
        operation_id="listEvents",
        summary="Events after a version, as you may see them",
        **declare(Token.OPTIONAL, GAME_NOT_FOUND, cached=True, paged=True),
    )
    @off_loop
    def events(
        self,
        request: Request[Principal | None, Any, Any],
        ledger: NamedDependency[Cardledger],
        game_id: FromPath[UUID],
        after: Annotated[int, QueryParameter(ge=0, le=MAX_VERSION)] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = 100,
        min_version: MinVersion = 0,
    ) -> Response[EventPage]:
        known = holds(request, after, min_version)  # a page after `after`: the client has it
        read = ledger.queries.read(request.user, game_id, holds=known)
        return validator(request, read, after, limit).answer(
            request,
            lambda: ledger.queries.events_in(read, after=after, limit=limit),
            lambda page: next_events(request, page),
        )

    @get(
        "/{game_id:uuid}/scoreboard",
        operation_id="getScoreboard",
        summary="Scores per hand, totals and ranking",
        **declare(Token.NONE, GAME_NOT_FOUND),
    )
    @off_loop
    def scoreboard(
        self, ledger: NamedDependency[Cardledger], game_id: FromPath[UUID]
    ) -> Scoreboard:
        return ledger.queries.scoreboard(game_id)

    @get(
        "/{game_id:uuid}/stream",
        operation_id="streamGame",
        summary="Server-Sent Events: your view of each new event, live; resumable",
        **declare(
            Token.OPTIONAL, GAME_NOT_FOUND, INVALID_LAST_EVENT_ID, TOO_MANY_STREAMS, ticket=True
        ),
    )
    async def stream(
        self,
        request: Request[Principal | None, Any, Any],
        live: NamedDependency[Live],
        slots: NamedDependency[StreamSlots],
        game_id: FromPath[UUID],
        ticket: Annotated[str | None, QueryParameter(required=False)] = None,
        after: Annotated[int | None, QueryParameter(required=False, ge=0, le=MAX_VERSION)] = None,
        last_event_id: Annotated[
            str | None, HeaderParameter(name="Last-Event-ID", required=False)
        ] = None,
    ) -> ServerSentEvent:
        ledger = live.ledger
        who: Principal | None
        if ticket is not None:
            who = await on_thread(ledger.tickets.holder, ticket, game_id)
        else:
            who = request.user
        await on_thread(ledger.queries.load, game_id)
        resume = after or 0
        if last_event_id is not None:
            resumed = whole_number(last_event_id.strip())
            if resumed is None:
                raise INVALID_LAST_EVENT_ID("Last-Event-ID is an event version")
            resume = resumed
        give_back = await slots.take(request, who.actor_id if who else None)
        stream = live.stream(who, game_id, resume, on_end=give_back)
        return live_answer(stream, give_back)

    @get(
        "/{game_id:uuid}/replay",
        operation_id="replayGame",
        summary="One frame per event (the event and the table after it) from a perspective",
        **declare(
            Token.OPTIONAL,
            GAME_NOT_FOUND,
            INVALID_PERSPECTIVE,
            PERSPECTIVE_FORBIDDEN,
            INVALID_RANGE,
            cached=True,
            paged=True,
        ),
    )
    @off_loop
    def replay(
        self,
        request: Request[Principal | None, Any, Any],
        ledger: NamedDependency[Cardledger],
        game_id: FromPath[UUID],
        perspective: Annotated[str, QueryParameter()] = "public",
        start: Annotated[int, QueryParameter(name="from", ge=1, le=MAX_VERSION)] = 1,
        to: Annotated[int | None, QueryParameter(required=False, ge=1, le=MAX_VERSION)] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_FRAMES)] = 100,
        min_version: MinVersion = 0,
    ) -> Response[ReplayPage]:
        if to is not None and to < start:
            raise INVALID_RANGE("to is a version at or after from")
        known = holds(request, start - 1, min_version)
        read = ledger.queries.read_as(request.user, game_id, perspective, holds=known)
        return validator(request, read, start, to, limit).answer(
            request,
            lambda: ledger.queries.replay_in(
                read, perspective=perspective, start=start, to=to, limit=limit
            ),
            lambda page: next_frames(request, page, to),
        )

    @get(
        "/{game_id:uuid}/audit",
        operation_id="auditGame",
        summary="Verification report: chain, seed, every decision re-run, scores",
        **READ,
    )
    @off_loop
    def audit(
        self,
        request: Request[Principal | None, Any, Any],
        ledger: NamedDependency[Cardledger],
        game_id: FromPath[UUID],
        min_version: MinVersion = 0,
    ) -> Response[AuditReport]:
        read = ledger.queries.read_public(request.user, game_id, holds=holds(request, min_version))
        return validator(request, read).answer(request, lambda: ledger.queries.audit_in(read))

    @get(
        "/{game_id:uuid}/export",
        operation_id="exportGame",
        summary="The whole log as a bundle that `cardledger verify` checks offline",
        **declare(Token.OPTIONAL, GAME_NOT_FOUND, GAME_NOT_OVER, cached=True),
    )
    @off_loop
    def export(
        self,
        request: Request[Principal | None, Any, Any],
        ledger: NamedDependency[Cardledger],
        game_id: FromPath[UUID],
        min_version: MinVersion = 0,
    ) -> Response[Bundle]:
        read = ledger.queries.read(request.user, game_id, holds=holds(request, min_version))
        if not read.over:
            return Response(ledger.queries.export_in(read))  # the operator's: it will grow
        return validator(request, read).answer(request, lambda: ledger.queries.export_in(read))
