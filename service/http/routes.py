"""HTTP handlers: parse, authenticate, call one application method. Errors map in problems.py."""

from __future__ import annotations

import asyncio
import weakref
from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Request, get, post
from litestar.concurrency import sync_to_thread
from litestar.datastructures import State
from litestar.params import FromPath, HeaderParameter, QueryParameter, RawBody
from litestar.response import ServerSentEvent

from projections.audit import AuditReport
from projections.lobby import LobbyEntry
from projections.scoreboard import Scoreboard
from projections.views import View
from service.application import Cardledger
from service.auth import Principal, bearer_token
from service.bundle import Bundle
from service.errors import ApiError, unauthorized
from service.http.bodies import (
    CreateGame,
    CreatePlayer,
    Health,
    JoinGame,
    VariantInfo,
    decode_body,
    decode_json,
    variant_catalog,
)
from service.http.limits import StreamSlots
from service.live.streams import game_stream
from service.live.tickets import StreamTicket
from service.numbers import whole_number
from service.results import (
    CommandResult,
    EventPage,
    Idempotency,
    Leaderboard,
    RegisteredPlayer,
    ReplayPage,
    request_digest,
)

IdempotencyKey = Annotated[str | None, HeaderParameter(name="Idempotency-Key", required=False)]
IfMatch = Annotated[str | None, HeaderParameter(name="If-Match", required=False)]
GAME_STATUSES = ("waiting", "active", "finished", "cancelled")
MAX_PAGE = 500
MAX_IDEMPOTENCY_KEY = 128
MAX_FRAMES = 200
READY_SECONDS = 0.8  # /ready answers within a second, whatever the store does


def ledger(state: State) -> Cardledger:
    app: Cardledger = state.ledger
    return app


def caller(
    request: Request[Any, Any, Any], state: State, *, required: bool = True
) -> Principal | None:
    token = bearer_token(request.headers.get("Authorization"))
    if token is None:
        if required:
            raise unauthorized()
        return None
    return ledger(state).authenticate(token)


def optional_caller(request: Request[Any, Any, Any], state: State) -> Principal | None:
    return caller(request, state, required=False)


def player(request: Request[Any, Any, Any], state: State) -> Principal:
    principal = caller(request, state)
    assert principal is not None
    return principal


def idempotency(
    key: str | None, request: Request[Any, Any, Any], body: object
) -> Idempotency | None:
    if key is None:
        return None
    if not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY or not key.isprintable():
        raise ApiError(
            400,
            "invalid_idempotency_key",
            f"Idempotency-Key is 1 to {MAX_IDEMPOTENCY_KEY} printable characters",
        )
    return Idempotency(key=key, digest=request_digest(request.method, request.url.path, body))


def parse_if_match(value: str | None) -> int | None:
    if value is None:
        return None
    version = whole_number(value.strip().removeprefix("W/").strip('"'))
    if version is None:
        raise ApiError(400, "invalid_if_match", 'If-Match must be a game version, e.g. "12"')
    return version


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


class GameController(Controller):
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
        summary="The lobby, newest first, by status and variant, a page at a time (limit, offset)",
        sync_to_thread=True,
    )
    def lobby(
        self,
        state: State,
        status: Annotated[str | None, QueryParameter(required=False)] = None,
        variant: Annotated[str | None, QueryParameter(required=False)] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = MAX_PAGE,
        offset: Annotated[int, QueryParameter(ge=0)] = 0,
    ) -> list[LobbyEntry]:
        if status is not None and status not in GAME_STATUSES:
            raise ApiError(422, "invalid_status", f"status is one of {', '.join(GAME_STATUSES)}")
        return ledger(state).lobby(status=status, variant=variant, limit=limit, offset=offset)

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

    @get(
        "/{game_id:uuid}",
        operation_id="getGame",
        summary="Public summary of a game",
        sync_to_thread=True,
    )
    def summary(self, state: State, game_id: FromPath[UUID]) -> View:
        return ledger(state).public_view(game_id)

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

    @get(
        "/{game_id:uuid}/view",
        operation_id="getView",
        summary="Your view of the game",
        sync_to_thread=True,
    )
    def view(self, request: Request[Any, Any, Any], state: State, game_id: FromPath[UUID]) -> View:
        return ledger(state).game_view(caller(request, state, required=False), game_id)

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
        after: Annotated[int, QueryParameter(ge=0)] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = 100,
    ) -> EventPage:
        return ledger(state).events(
            caller(request, state, required=False), game_id, after=after, limit=limit
        )

    @get(
        "/{game_id:uuid}/scoreboard",
        operation_id="getScoreboard",
        summary="Scores per hand, totals and ranking",
        sync_to_thread=True,
    )
    def scoreboard(self, state: State, game_id: FromPath[UUID]) -> Scoreboard:
        return ledger(state).scoreboard(game_id)

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
        after: Annotated[int | None, QueryParameter(required=False, ge=0)] = None,
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
        start: Annotated[int, QueryParameter(name="from", ge=1)] = 1,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_FRAMES)] = 100,
    ) -> ReplayPage:
        return ledger(state).replay(
            caller(request, state, required=False),
            game_id,
            perspective=perspective,
            start=start,
            limit=limit,
        )

    @get(
        "/{game_id:uuid}/audit",
        operation_id="auditGame",
        summary="Verification report: chain, seed, every decision re-run, scores",
        sync_to_thread=True,
    )
    def audit(self, state: State, game_id: FromPath[UUID]) -> AuditReport:
        return ledger(state).audit(game_id)

    @get(
        "/{game_id:uuid}/export",
        operation_id="exportGame",
        summary="The whole log as a bundle that `cardledger verify` checks offline",
        sync_to_thread=True,
    )
    def export(
        self, request: Request[Any, Any, Any], state: State, game_id: FromPath[UUID]
    ) -> Bundle:
        return ledger(state).export(caller(request, state, required=False), game_id)

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


class MetaController(Controller):
    tags = ["meta"]

    @get("/variants", operation_id="listVariants", summary="Variants, player counts and options")
    async def variants(self) -> list[VariantInfo]:
        return variant_catalog()

    @get(
        "/leaderboard",
        operation_id="getLeaderboard",
        summary="Players ranked per variant: games, wins, points",
        sync_to_thread=True,
    )
    def leaderboard(
        self,
        state: State,
        variant: Annotated[str | None, QueryParameter(required=False)] = None,
    ) -> list[Leaderboard]:
        return ledger(state).leaderboard(variant)

    @get("/health", operation_id="health", summary="Liveness")
    async def health(self) -> Health:
        return Health(status="ok")

    @get(
        "/ready",
        operation_id="ready",
        summary="Readiness: the event store answers a read, within a second",
    )
    async def ready(self, state: State) -> Health:
        try:
            await asyncio.wait_for(sync_to_thread(ledger(state).ready), READY_SECONDS)
        except Exception as error:  # a timeout, or whatever the store raised
            raise ApiError(
                503,
                "store_unavailable",
                f"the event store does not answer: {type(error).__name__}",
                headers={"Retry-After": "1"},
            ) from None
        return Health(status="ready")
