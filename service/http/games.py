"""The games: the lobby and creating one; then what writes to a game: join, command, cancel,
and the stream ticket."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Request, Response, get, post
from litestar.datastructures import State
from litestar.params import FromPath, QueryParameter, RawBody

from projections.lobby import LobbyEntry
from service.http.bodies import CreateGame, JoinGame, decode_body, decode_json
from service.http.callers import (
    IdempotencyKey,
    IfMatch,
    idempotency,
    ledger,
    parse_if_match,
    player,
)
from service.http.game_reads import MAX_PAGE, checked_status
from service.http.paging import Cursor, Cursors
from service.live.tickets import StreamTicket
from service.results import CommandResult, LobbyPlace


class GameCommands(Controller):
    """The lobby, and everything that writes to a game."""

    path = "/games"
    tags = ["games"]

    @post(
        "/",
        operation_id="createGame",
        summary="Create a game; the creator takes seat 0",
        status_code=201,
        sync_to_thread=True,
    )
    def create(
        self,
        request: Request[Any, Any, Any],
        state: State,
        body: RawBody,
        idempotency_key: IdempotencyKey,
    ) -> CommandResult:
        who = player(request, state)
        data = decode_json(body)
        create = decode_body(body, CreateGame)
        return ledger(state).create_game(
            who,
            variant=create.variant,
            seats=create.seats,
            options=create.options,
            client_seed=create.client_seed,
            idempotency=idempotency(idempotency_key, request, data),
        )

    @get(
        "/",
        operation_id="listGames",
        summary="The lobby, newest first, by status and variant, a page at a time (limit, cursor)",
        sync_to_thread=True,
    )
    def lobby(
        self,
        request: Request[Any, Any, Any],
        state: State,
        status: Annotated[str | None, QueryParameter(required=False)] = None,
        variant: Annotated[str | None, QueryParameter(required=False)] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = MAX_PAGE,
        cursor: Cursor = None,
    ) -> Response[list[LobbyEntry]]:
        status = checked_status(status)
        cursors = Cursors(state, "lobby", status=status, variant=variant)
        after = cursors.place(cursor, LobbyPlace)
        page = ledger(state).lobby(status=status, variant=variant, limit=limit, after=after)
        return cursors.answer(request, page)

    @post(
        "/{game_id:uuid}/join",
        operation_id="joinGame",
        summary="Take the next free seat; the game starts when every seat is taken",
        status_code=200,
        sync_to_thread=True,
    )
    def join(
        self,
        request: Request[Any, Any, Any],
        state: State,
        game_id: FromPath[UUID],
        body: RawBody,
        idempotency_key: IdempotencyKey,
    ) -> CommandResult:
        who = player(request, state)
        join = decode_body(body, JoinGame, empty_ok=True)
        data = decode_json(body)
        return ledger(state).join_game(
            who,
            game_id,
            client_seed=join.client_seed,
            idempotency=idempotency(idempotency_key, request, data),
        )

    @post(
        "/{game_id:uuid}/commands",
        operation_id="sendCommand",
        summary="Send a command for your seat",
        status_code=200,
        sync_to_thread=True,
    )
    def command(
        self,
        request: Request[Any, Any, Any],
        state: State,
        game_id: FromPath[UUID],
        body: RawBody,
        idempotency_key: IdempotencyKey,
        if_match: IfMatch,
    ) -> CommandResult:
        who = player(request, state)
        data = decode_json(body)
        return ledger(state).send_command(
            who,
            game_id,
            data,
            idempotency=idempotency(idempotency_key, request, data),
            if_match=parse_if_match(if_match),
        )

    @post(
        "/{game_id:uuid}/stream-ticket",
        operation_id="issueStreamTicket",
        summary="A one-minute, read-only ticket that opens this game's stream in a browser",
        status_code=201,
        sync_to_thread=True,
    )
    def stream_ticket(
        self, request: Request[Any, Any, Any], state: State, game_id: FromPath[UUID]
    ) -> StreamTicket:
        return ledger(state).stream_ticket(player(request, state), game_id)

    @post(
        "/{game_id:uuid}/cancel",
        operation_id="cancelGame",
        summary="Cancel: the creator before the start, the operator any time",
        status_code=200,
        sync_to_thread=True,
    )
    def cancel(
        self,
        request: Request[Any, Any, Any],
        state: State,
        game_id: FromPath[UUID],
        idempotency_key: IdempotencyKey,
    ) -> CommandResult:
        who = player(request, state)
        return ledger(state).cancel_game(
            who, game_id, idempotency=idempotency(idempotency_key, request, None)
        )
