"""A finished game's rematch: offer or accept it, decline or withdraw it, see where it stands."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Controller, Request, delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, RawBody

from domain.game import CREATE_REFUSALS
from domain.matchmaking.rematch import ANSWER_REFUSALS, DECLINE_REFUSALS
from service.application import Cardledger
from service.application.rematches import RematchStatus
from service.auth import Principal
from service.errors import (
    GAME_NOT_FOUND,
    INVALID_BODY,
    PLAYERS_ONLY,
    TOO_MANY_GAMES,
    TOO_MUCH_CONTENTION,
    UNKNOWN_LEVEL,
)
from service.http.bodies import JoinGame, convert, decode_json
from service.http.contract import Token, declare, rule_refusals
from service.http.routes.off_loop import off_loop

# What making the new game may answer (any answer may be the last yes, which makes it): its
# seats' room (too_many_games), and its creation rules, which a rematch of a game that was
# played never breaks; a decline makes nothing, but the source scan (tests/contract) cannot
# tell, so they are declared.
SEATING = (TOO_MANY_GAMES, UNKNOWN_LEVEL, rule_refusals(CREATE_REFUSALS.items()))


class RematchController(Controller):
    """The rematch of one finished game."""

    path = "/games/{game_id:uuid}/rematch"
    tags = ["games"]

    @post(
        "/",
        operation_id="offerOrAcceptRematch",
        summary="Offer a rematch of a finished game, or accept the one offered",
        status_code=200,
        **declare(
            Token.REQUIRED,
            GAME_NOT_FOUND,
            PLAYERS_ONLY,
            INVALID_BODY,
            TOO_MUCH_CONTENTION,
            rule_refusals(ANSWER_REFUSALS.items()),
            *SEATING,
            body=True,
        ),
    )
    @off_loop
    def accept(
        self,
        request: Request[Principal, Any, Any],
        ledger: NamedDependency[Cardledger],
        game_id: FromPath[UUID],
        body: RawBody,
    ) -> RematchStatus:
        data = decode_json(body)
        answer = convert({} if data is None else data, JoinGame)
        return ledger.rematches.accept(request.user, game_id, answer.client_seed)

    @delete(
        "/",
        operation_id="declineRematch",
        summary="Decline the rematch offered (or withdraw your own offer)",
        status_code=200,
        **declare(
            Token.REQUIRED,
            GAME_NOT_FOUND,
            PLAYERS_ONLY,
            TOO_MUCH_CONTENTION,
            rule_refusals(DECLINE_REFUSALS.items()),
            *SEATING,
        ),
    )
    @off_loop
    def decline(
        self,
        request: Request[Principal, Any, Any],
        ledger: NamedDependency[Cardledger],
        game_id: FromPath[UUID],
    ) -> RematchStatus:
        return ledger.rematches.decline(request.user, game_id)

    @get(
        "/",
        operation_id="getRematch",
        summary="Where a game's rematch stands: offered, declined, or made (with the new game)",
        **declare(Token.NONE, GAME_NOT_FOUND),
    )
    @off_loop
    def rematch(
        self, ledger: NamedDependency[Cardledger], game_id: FromPath[UUID]
    ) -> RematchStatus:
        return ledger.rematches.status(game_id)
