"""Players: registration, and the games a player sits at."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter, RawBody

from domain.variants import REFUSALS as REGISTRY_REFUSALS
from projections.lobby import LobbyEntry
from service.application import Cardledger
from service.application.ratings import PlayerProfile, RatingExport
from service.application.results import RegisteredPlayer
from service.auth import Principal
from service.errors import (
    INVALID_BODY,
    INVALID_CURSOR,
    INVALID_NAME,
    INVALID_STATUS,
    PLAYER_NOT_FOUND,
    PLAYERS_ONLY,
)
from service.http.bodies import MAX_PAGE, CreatePlayer, checked_status, convert, decode_json
from service.http.contract import Token, declare, rule_refusals
from service.http.paging import Cursor, Cursors, next_link
from service.read_models.pages import LobbyPlace


class PlayerController(Controller):
    path = "/players"
    tags = ["players"]

    @post(
        "/",
        operation_id="registerPlayer",
        summary="Register a player; the bearer token is shown only in this response",
        status_code=201,
        sync_to_thread=True,
        **declare(Token.NONE, INVALID_BODY, INVALID_NAME, body=True),
    )
    def register(self, ledger: NamedDependency[Cardledger], body: RawBody) -> RegisteredPlayer:
        return ledger.players.register(convert(decode_json(body), CreatePlayer).name)

    @get(
        "/me/games",
        operation_id="listMyGames",
        summary="The games you sit at, newest first, a page at a time (limit, cursor)",
        sync_to_thread=True,
        **declare(Token.REQUIRED, PLAYERS_ONLY, INVALID_STATUS, INVALID_CURSOR, paged=True),
    )
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
        "/{player_id:str}",
        operation_id="getPlayer",
        summary="A player (or a bot level) and their rating and its uncertainty in each variant",
        sync_to_thread=True,
        **declare(Token.NONE, PLAYER_NOT_FOUND),
    )
    def player(
        self, ledger: NamedDependency[Cardledger], player_id: FromPath[str]
    ) -> PlayerProfile:
        return ledger.ratings.profile(player_id)

    @get(
        "/{player_id:str}/ratings",
        operation_id="exportPlayerRatings",
        summary="A player's rated games in a variant, in the order of the updates: each seat's"
        " rank and rating before and after (re-derivable: docs/ratings.md); a page at a time",
        sync_to_thread=True,
        **declare(
            Token.NONE, PLAYER_NOT_FOUND, rule_refusals(REGISTRY_REFUSALS.items()), paged=True
        ),
    )
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
