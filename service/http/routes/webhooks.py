"""A player's webhook: where their messages are POSTed, signed (docs/notifications.md)."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, delete, get, post, put
from litestar.di import NamedDependency
from litestar.params import RawBody

from service.application import Cardledger
from service.application.messaging.webhooks import RegisteredWebhook, WebhookStatus
from service.auth import Principal
from service.errors import (
    INVALID_BODY,
    INVALID_WEBHOOK_URL,
    NO_WEBHOOK,
    PLAYERS_ONLY,
    WEBHOOK_NOT_ALLOWED,
)
from service.http.bodies import WebhookTarget, convert, decode_json
from service.http.contract import Token, declare
from service.http.routes.off_loop import off_loop


class WebhookController(Controller):
    path = "/players/me/webhook"
    tags = ["players"]

    @put(
        "/",
        operation_id="setMyWebhook",
        summary="Register or replace your webhook; its signing key is shown only in this answer",
        **declare(
            Token.REQUIRED,
            PLAYERS_ONLY,
            INVALID_BODY,
            INVALID_WEBHOOK_URL,
            WEBHOOK_NOT_ALLOWED,
            body=True,
        ),
    )
    @off_loop
    def register(
        self,
        request: Request[Principal, Any, Any],
        ledger: NamedDependency[Cardledger],
        body: RawBody,
    ) -> RegisteredWebhook:
        target = convert(decode_json(body), WebhookTarget)
        return ledger.webhooks.register(request.user, target.url)

    @get(
        "/",
        operation_id="getMyWebhook",
        summary="Your webhook and where its deliveries stand (never its key)",
        **declare(Token.REQUIRED, PLAYERS_ONLY, NO_WEBHOOK),
    )
    @off_loop
    def status(
        self, request: Request[Principal, Any, Any], ledger: NamedDependency[Cardledger]
    ) -> WebhookStatus:
        return ledger.webhooks.status(request.user)

    @post(
        "/resume",
        operation_id="resumeMyWebhook",
        summary="Deliver to your webhook again at once (after it was paused as failing, or"
        " instead of waiting for the next retry)",
        status_code=200,
        **declare(Token.REQUIRED, PLAYERS_ONLY, NO_WEBHOOK),
    )
    @off_loop
    def resume(
        self, request: Request[Principal, Any, Any], ledger: NamedDependency[Cardledger]
    ) -> WebhookStatus:
        return ledger.webhooks.resume(request.user)

    @delete(
        "/",
        operation_id="deleteMyWebhook",
        summary="Delete your webhook: nothing more is delivered",
        status_code=204,
        **declare(Token.REQUIRED, PLAYERS_ONLY, NO_WEBHOOK),
    )
    @off_loop
    def remove(
        self, request: Request[Principal, Any, Any], ledger: NamedDependency[Cardledger]
    ) -> None:
        ledger.webhooks.remove(request.user)
