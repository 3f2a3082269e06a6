"""Players: registration, and the games a player sits at."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, get, post
from litestar.datastructures import State
from litestar.params import QueryParameter, RawBody

from projections.lobby import LobbyEntry
from service.http.bodies import CreatePlayer, decode_body
from service.http.callers import ledger, player
from service.http.game_reads import MAX_PAGE, checked_status
from service.http.paging import Cursor, Cursors
from service.results import LobbyPlace, RegisteredPlayer


class PlayerController(Controller):
    path = "/players"
    tags = ["players"]

    @post(
        "/",
        operation_id="registerPlayer",
        summary="Register a player; the bearer token is shown only in this response",
        status_code=201,
        sync_to_thread=True,
    )
    def register(self, state: State, body: RawBody) -> RegisteredPlayer:
        request = decode_body(body, CreatePlayer)
        return ledger(state).register_player(request.name)

    @get(
        "/me/games",
        operation_id="listMyGames",
        summary="The games you sit at, newest first, a page at a time (limit, cursor)",
        sync_to_thread=True,
    )
    def my_games(
        self,
        request: Request[Any, Any, Any],
        state: State,
        status: Annotated[str | None, QueryParameter(required=False)] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = 100,
        cursor: Cursor = None,
    ) -> Response[list[LobbyEntry]]:
        who = player(request, state)
        status = checked_status(status)
        cursors = Cursors(state, "my_games", player=who.player_id, status=status)
        after = cursors.place(cursor, LobbyPlace)
        page = ledger(state).games_of(who, status=status, limit=limit, after=after)
        return cursors.answer(request, page)
