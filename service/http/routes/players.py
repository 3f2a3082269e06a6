"""Players: registration, the games a player sits at, and what they hear about them (their
messages, a page at a time or live)."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter, QueryParameter, RawBody
from litestar.response import ServerSentEvent

from domain.variants import REFUSALS as REGISTRY_REFUSALS
from projections.lobby import LobbyEntry
from service.application import Cardledger
from service.application.messaging.messages import MessageId, MessagePage, listener, parse_after
from service.application.ratings import PlayerProfile, RatingExport
from service.application.results import RegisteredPlayer
from service.application.tickets import StreamTicket
from service.auth import Principal
from service.errors import (
    INVALID_BODY,
    INVALID_CURSOR,
    INVALID_LAST_EVENT_ID,
    INVALID_NAME,
    INVALID_STATUS,
    PLAYER_NOT_FOUND,
    PLAYERS_ONLY,
    TOO_MANY_STREAMS,
    UNAUTHORIZED,
)
from service.http.bodies import MAX_PAGE, CreatePlayer, checked_status, convert, decode_json
from service.http.contract import Token, declare, rule_refusals
from service.http.limits import StreamSlots, live_answer
from service.http.paging import Cursor, Cursors, next_link
from service.http.routes.off_loop import off_loop
from service.live.streams import Live
from service.read_models.pages import LobbyPlace
from service.threads import on_thread

AFTER = "a message id (or 0 for the first): what comes after it"


class PlayerController(Controller):
    path = "/players"
    tags = ["players"]

    @post(
        "/",
        operation_id="registerPlayer",
        summary="Register a player; the bearer token is shown only in this response",
        status_code=201,
        **declare(Token.NONE, INVALID_BODY, INVALID_NAME, body=True),
    )
    @off_loop
    def register(self, ledger: NamedDependency[Cardledger], body: RawBody) -> RegisteredPlayer:
        return ledger.players.register(convert(decode_json(body), CreatePlayer).name)

    @get(
        "/me/games",
        operation_id="listMyGames",
        summary="The games you sit at, newest first, a page at a time (limit, cursor)",
        **declare(Token.REQUIRED, PLAYERS_ONLY, INVALID_STATUS, INVALID_CURSOR, paged=True),
    )
    @off_loop
    def my_games(
        self,
        request: Request[Principal, Any, Any],
        ledger: NamedDependency[Cardledger],
        status: Annotated[str | None, QueryParameter(required=False)] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = 100,
        cursor: Cursor = None,
    ) -> Response[list[LobbyEntry]]:
        status = checked_status(status)
        cursors = Cursors(ledger.tickets, "my_games", player=request.user.player_id, status=status)
        after = cursors.place(cursor, LobbyPlace)
        page = ledger.queries.games_of(request.user, status=status, limit=limit, after=after)
        return cursors.answer(request, page)

    @get(
        "/me/messages",
        operation_id="listMyMessages",
        summary="What you heard about your games (your turn, game started, game over), oldest"
        " first, after a message id; a page at a time",
        **declare(Token.REQUIRED, PLAYERS_ONLY, INVALID_CURSOR, paged=True),
    )
    @off_loop
    def my_messages(
        self,
        request: Request[Principal, Any, Any],
        ledger: NamedDependency[Cardledger],
        after: Annotated[str, QueryParameter(description=AFTER, max_length=40)] = "0",
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = 100,
    ) -> Response[MessagePage]:
        page = ledger.messages.page(request.user, parse_after(after, INVALID_CURSOR), limit)
        if page.next_after is None:
            return Response(page)
        return Response(page, headers=next_link(request, "after", page.next_after))

    @post(
        "/me/stream-ticket",
        operation_id="issueMyStreamTicket",
        summary="A one-minute, read-only ticket that opens your stream of messages in a browser",
        status_code=201,
        **declare(Token.REQUIRED, PLAYERS_ONLY),
    )
    @off_loop
    def my_stream_ticket(
        self, request: Request[Principal, Any, Any], ledger: NamedDependency[Cardledger]
    ) -> StreamTicket:
        return ledger.tickets.issue_for_messages(request.user)

    @get(
        "/me/stream",
        operation_id="streamMyMessages",
        summary="Server-Sent Events: your messages about all your games, live; resumable with"
        " Last-Event-ID (without it, from now on, or after ?after=)",
        **declare(
            Token.REQUIRED,
            PLAYERS_ONLY,
            INVALID_LAST_EVENT_ID,
            INVALID_CURSOR,
            TOO_MANY_STREAMS,
            ticket=True,
        ),
    )
    async def my_stream(
        self,
        request: Request[Principal | None, Any, Any],
        live: NamedDependency[Live],
        slots: NamedDependency[StreamSlots],
        ticket: Annotated[str | None, QueryParameter(required=False)] = None,
        after: Annotated[
            str | None, QueryParameter(required=False, description=AFTER, max_length=40)
        ] = None,
        last_event_id: Annotated[
            str | None, HeaderParameter(name="Last-Event-ID", required=False)
        ] = None,
    ) -> ServerSentEvent:
        who = request.user
        if ticket is not None:
            who = await on_thread(live.ledger.tickets.messages_holder, ticket)
        if who is None:
            raise UNAUTHORIZED("your stream needs your bearer token or a stream ticket")
        player = listener(who)
        resume: MessageId | None = None
        if last_event_id is not None:
            resume = parse_after(last_event_id, INVALID_LAST_EVENT_ID)
        elif after is not None:
            resume = parse_after(after, INVALID_CURSOR)
        give_back = await slots.take(request, who.actor_id)
        stream = live.player_stream(player, resume, on_end=give_back)
        return live_answer(stream, give_back)

    @get(
        "/{player_id:str}",
        operation_id="getPlayer",
        summary="A player (or a bot level) and their rating and its uncertainty in each variant",
        **declare(Token.NONE, PLAYER_NOT_FOUND),
    )
    @off_loop
    def player(
        self, ledger: NamedDependency[Cardledger], player_id: FromPath[str]
    ) -> PlayerProfile:
        return ledger.ratings.profile(player_id)

    @get(
        "/{player_id:str}/ratings",
        operation_id="exportPlayerRatings",
        summary="A player's rated games in a variant, in the order of the updates: each seat's"
        " rank and rating before and after (re-derivable: docs/ratings.md); a page at a time",
        **declare(
            Token.NONE, PLAYER_NOT_FOUND, rule_refusals(REGISTRY_REFUSALS.items()), paged=True
        ),
    )
    @off_loop
    def ratings(
        self,
        request: Request[Any, Any, Any],
        ledger: NamedDependency[Cardledger],
        player_id: FromPath[str],
        variant: Annotated[str, QueryParameter(description="the variant's id")],
        after: Annotated[
            int,
            QueryParameter(
                ge=0, description="the page starts after this log position (a game's end)"
            ),
        ] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = MAX_PAGE,
    ) -> Response[RatingExport]:
        export = ledger.ratings.export(player_id, variant, after=after, limit=limit)
        if export.next_after is None:
            return Response(export)
        return Response(export, headers=next_link(request, "after", export.next_after))
