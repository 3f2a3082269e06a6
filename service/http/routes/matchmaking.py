"""Quick match: join a variant's queue, see where you stand, leave it."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, RawBody

from domain.game import CREATE_REFUSALS
from domain.matchmaking.queue import JOIN_REFUSALS, LEAVE_REFUSALS
from service.application import Cardledger
from service.application.matchmaking import BotWait, QueueStatus
from service.auth import Principal
from service.errors import (
    IDEMPOTENCY_KEY_REUSED,
    INVALID_BODY,
    INVALID_IDEMPOTENCY_KEY,
    PLAYERS_ONLY,
    TOO_MANY_GAMES,
    TOO_MUCH_CONTENTION,
    UNKNOWN_LEVEL,
)
from service.http.bodies import JoinQueue, convert, decode_json
from service.http.contract import Token, declare, rule_refusals
from service.http.dependencies import IdempotencyKey, idempotency
from service.http.routes.off_loop import off_loop

# The seating rules of a new game: a table formed from checked entries never breaks them, but
# the source scan (tests/contract) cannot tell, so they are declared.
SEATING = rule_refusals(
    (code, CREATE_REFUSALS[code])
    for code in ("invalid_seat_count", "invalid_seat", "seat_taken", "too_many_bots")
)


class MatchmakingController(Controller):
    """A player's entries in the quick-match queues."""

    path = "/matchmaking/queue"
    tags = ["matchmaking"]

    @post(
        "/",
        operation_id="joinQueue",
        summary="Wait for a table of a variant; seated at once if your entry completes one",
        status_code=200,
        **declare(
            Token.REQUIRED,
            INVALID_IDEMPOTENCY_KEY,
            IDEMPOTENCY_KEY_REUSED,
            PLAYERS_ONLY,
            INVALID_BODY,
            UNKNOWN_LEVEL,
            TOO_MANY_GAMES,
            TOO_MUCH_CONTENTION,
            rule_refusals(JOIN_REFUSALS.items()),
            SEATING,
            body=True,
        ),
    )
    @off_loop
    def join(
        self,
        request: Request[Principal, Any, Any],
        ledger: NamedDependency[Cardledger],
        body: RawBody,
        idempotency_key: IdempotencyKey,
    ) -> QueueStatus:
        data = decode_json(body)
        entry = convert(data, JoinQueue)
        key = idempotency(idempotency_key, request, data)
        bots = entry.bots
        return ledger.matchmaking.join(
            request.user,
            entry.variant,
            min_seats=entry.min_seats,
            max_seats=entry.max_seats,
            options=entry.options,
            rating_band=entry.rating_band,
            bots=None if bots is None else BotWait(after=bots.after, level=bots.level),
            client_seed=entry.client_seed,
            idempotency=key,
        )

    @get(
        "/",
        operation_id="myQueueEntries",
        summary="Where you stand in each queue: waiting, or matched with the game's id",
        **declare(Token.REQUIRED, PLAYERS_ONLY),
    )
    @off_loop
    def entries(
        self, request: Request[Principal, Any, Any], ledger: NamedDependency[Cardledger]
    ) -> list[QueueStatus]:
        return ledger.matchmaking.status(request.user)

    @delete(
        "/{variant:str}",
        operation_id="leaveQueue",
        summary="Stop waiting for a table of this variant",
        status_code=204,
        **declare(
            Token.REQUIRED,
            PLAYERS_ONLY,
            TOO_MUCH_CONTENTION,
            rule_refusals(LEAVE_REFUSALS.items()),
        ),
    )
    @off_loop
    def leave(
        self,
        request: Request[Principal, Any, Any],
        ledger: NamedDependency[Cardledger],
        variant: FromPath[str],
    ) -> None:
        ledger.matchmaking.leave(request.user, variant)
