"""Players: registration, and the games a player sits at."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, get, post
from litestar.datastructures import State
from litestar.params import QueryParameter, RawBody

from projections.lobby import LobbyEntry
from service.http.bodies import CreatePlayer, decode_body
from service.http.callers import MAX_OFFSET, ledger, player
from service.http.game_reads import MAX_PAGE, checked_status
from service.results import RegisteredPlayer


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
        summary="The games you sit at, newest first, a page at a time (limit, offset)",
        sync_to_thread=True,
    )
    def my_games(
        self,
        request: Request[Any, Any, Any],
        state: State,
        status: Annotated[str | None, QueryParameter(required=False)] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = 100,
        offset: Annotated[int, QueryParameter(ge=0, le=MAX_OFFSET)] = 0,
    ) -> list[LobbyEntry]:
        who = player(request, state)
        return ledger(state).games_of(
            who, status=checked_status(status), limit=limit, offset=offset
        )
