"""The games: the lobby and creating one; then what writes to a game: join, command, cancel,
and the stream ticket."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter, RawBody

from domain.game import (
    BOT_REFUSALS,
    CANCEL_REFUSALS,
    CREATE_REFUSALS,
    JOIN_REFUSALS,
    play_refusals,
)
from domain.variants import REFUSALS as REGISTRY_REFUSALS
from projections.lobby import LobbyEntry
from service.application import Cardledger
from service.application.commands import BotRequest
from service.application.results import CommandResult
from service.application.tickets import StreamTicket
from service.auth import Principal
from service.errors import (
    GAME_NOT_FOUND,
    IDEMPOTENCY_KEY_REUSED,
    INVALID_BODY,
    INVALID_CURSOR,
    INVALID_IDEMPOTENCY_KEY,
    INVALID_IF_MATCH,
    INVALID_STATUS,
    PLAYERS_ONLY,
    TOO_MUCH_CONTENTION,
    UNKNOWN_LEVEL,
    VERSION_MISMATCH,
)
from service.http.bodies import (
    MAX_PAGE,
    AddBot,
    CreateGame,
    JoinGame,
    checked_status,
    convert,
    decode_json,
)
from service.http.contract import Token, declare, rule_refusals
from service.http.dependencies import IdempotencyKey, IfMatch, idempotency, parse_if_match
from service.http.paging import Cursor, Cursors
from service.http.routes.off_loop import off_loop
from service.read_models.pages import LobbyPlace

KEYED = (INVALID_IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_REUSED)
WRITE = (GAME_NOT_FOUND, *KEYED, PLAYERS_ONLY, TOO_MUCH_CONTENTION)


class GamesController(Controller):
    """The lobby, and everything that writes to a game."""

    path = "/games"
    tags = ["games"]

    @post(
        "/",
        operation_id="createGame",
        summary="Create a game, with any bots; the creator takes seat 0 unless a bot sits there",
        status_code=201,
        **declare(
            Token.REQUIRED,
            KEYED,
            PLAYERS_ONLY,
            INVALID_BODY,
            UNKNOWN_LEVEL,
            rule_refusals(CREATE_REFUSALS.items()),
            body=True,
        ),
    )
    @off_loop
    def create(
        self,
        request: Request[Principal, Any, Any],
        ledger: NamedDependency[Cardledger],
        body: RawBody,
        idempotency_key: IdempotencyKey,
    ) -> CommandResult:
        data = decode_json(body)
        create = convert(data, CreateGame)
        key = idempotency(idempotency_key, request, data)
        return ledger.commands.create(
            request.user,
            variant=create.variant,
            seats=create.seats,
            options=create.options,
            client_seed=create.client_seed,
            idempotency=key,
            bots=[BotRequest(level=bot.level, seat=bot.seat) for bot in create.bots],
        )

    @get(
        "/",
        operation_id="listGames",
        summary="The lobby, newest first, by status and variant, a page at a time (limit, cursor)",
        **declare(
            Token.NONE,
            INVALID_STATUS,
            INVALID_CURSOR,
            rule_refusals(REGISTRY_REFUSALS.items()),
            paged=True,
        ),
    )
    @off_loop
    def lobby(
        self,
        request: Request[Any, Any, Any],
        ledger: NamedDependency[Cardledger],
        status: Annotated[str | None, QueryParameter(required=False)] = None,
        variant: Annotated[str | None, QueryParameter(required=False)] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = MAX_PAGE,
        cursor: Cursor = None,
    ) -> Response[list[LobbyEntry]]:
        status = checked_status(status)
        cursors = Cursors(ledger.tickets, "lobby", status=status, variant=variant)
        after = cursors.place(cursor, LobbyPlace)
        page = ledger.queries.lobby(status=status, variant=variant, limit=limit, after=after)
        return cursors.answer(request, page)

    @post(
        "/{game_id:uuid}/join",
        operation_id="joinGame",
        summary="Take the next free seat; the game starts when every seat is taken",
        status_code=200,
        **declare(
            Token.REQUIRED, WRITE, INVALID_BODY, rule_refusals(JOIN_REFUSALS.items()), body=True
        ),
    )
    @off_loop
    def join(
        self,
        request: Request[Principal, Any, Any],
        ledger: NamedDependency[Cardledger],
        game_id: FromPath[UUID],
        body: RawBody,
        idempotency_key: IdempotencyKey,
    ) -> CommandResult:
        data = decode_json(body)
        join = convert({} if data is None else data, JoinGame)
        key = idempotency(idempotency_key, request, data)
        return ledger.commands.join(
            request.user, game_id, client_seed=join.client_seed, idempotency=key
        )

    @post(
        "/{game_id:uuid}/bots",
        operation_id="addBot",
        summary="Seat a bot (the creator, before the start); the game starts when that fills it",
        status_code=200,
        **declare(
            Token.REQUIRED,
            WRITE,
            INVALID_BODY,
            UNKNOWN_LEVEL,
            rule_refusals(BOT_REFUSALS.items()),
            body=True,
        ),
    )
    @off_loop
    def add_bot(
        self,
        request: Request[Principal, Any, Any],
        ledger: NamedDependency[Cardledger],
        game_id: FromPath[UUID],
        body: RawBody,
        idempotency_key: IdempotencyKey,
    ) -> CommandResult:
        data = decode_json(body)
        bot = convert(data, AddBot)
        key = idempotency(idempotency_key, request, data)
        return ledger.commands.add_bot(
            request.user, game_id, BotRequest(level=bot.level, seat=bot.seat), idempotency=key
        )

    @post(
        "/{game_id:uuid}/commands",
        operation_id="sendCommand",
        summary="Send a command for your seat",
        status_code=200,
        **declare(
            Token.REQUIRED,
            WRITE,
            INVALID_IF_MATCH,
            VERSION_MISMATCH,
            rule_refusals(play_refusals()),
            body=True,
        ),
    )
    @off_loop
    def command(
        self,
        request: Request[Principal, Any, Any],
        ledger: NamedDependency[Cardledger],
        game_id: FromPath[UUID],
        body: RawBody,
        idempotency_key: IdempotencyKey,
        if_match: IfMatch,
    ) -> CommandResult:
        data = decode_json(body)
        key = idempotency(idempotency_key, request, data)
        version = parse_if_match(if_match)
        return ledger.commands.send(request.user, game_id, data, idempotency=key, if_match=version)

    @post(
        "/{game_id:uuid}/stream-ticket",
        operation_id="issueStreamTicket",
        summary="A one-minute, read-only ticket that opens this game's stream in a browser",
        status_code=201,
        **declare(Token.REQUIRED, GAME_NOT_FOUND),
    )
    @off_loop
    def stream_ticket(
        self,
        request: Request[Principal, Any, Any],
        ledger: NamedDependency[Cardledger],
        game_id: FromPath[UUID],
    ) -> StreamTicket:
        return ledger.tickets.issue(request.user, game_id)

    @post(
        "/{game_id:uuid}/cancel",
        operation_id="cancelGame",
        summary="Cancel: the creator before the start, the operator any time",
        status_code=200,
        **declare(
            Token.REQUIRED,
            GAME_NOT_FOUND,
            KEYED,
            TOO_MUCH_CONTENTION,
            rule_refusals(CANCEL_REFUSALS.items()),
        ),
    )
    @off_loop
    def cancel(
        self,
        request: Request[Principal, Any, Any],
        ledger: NamedDependency[Cardledger],
        game_id: FromPath[UUID],
        idempotency_key: IdempotencyKey,
    ) -> CommandResult:
        key = idempotency(idempotency_key, request, None)
        return ledger.commands.cancel(request.user, game_id, idempotency=key)
