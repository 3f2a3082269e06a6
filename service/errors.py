"""The refusals the service makes besides the rules' own, each a status and a stable code.

Every one is named here once: the code raises it by name (``GAME_NOT_FOUND("no such game")``)
and each route declares by name the ones it can answer with, which is what the OpenAPI
document lists.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class ApiError(Exception):
    """A refusal with its status, stable code and words; ``extra`` members go in the problem's
    body, ``headers`` on its response (Retry-After, ...)."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra


class Refusal(NamedTuple):
    """A kind of refusal: calling it with the words for this case makes the error to raise."""

    status: int
    code: str

    def __call__(
        self, detail: str, *, headers: dict[str, str] | None = None, **extra: Any
    ) -> ApiError:
        return ApiError(self.status, self.code, detail, headers=headers, **extra)


# The request itself.
MALFORMED_JSON = Refusal(400, "malformed_json")
INVALID_PARAMETER = Refusal(400, "invalid_parameter")
INVALID_IDEMPOTENCY_KEY = Refusal(400, "invalid_idempotency_key")
INVALID_IF_MATCH = Refusal(400, "invalid_if_match")
INVALID_LAST_EVENT_ID = Refusal(400, "invalid_last_event_id")
INVALID_BODY = Refusal(422, "invalid_body")
INVALID_NAME = Refusal(422, "invalid_name")
INVALID_STATUS = Refusal(422, "invalid_status")
INVALID_RANGE = Refusal(422, "invalid_range")
INVALID_CURSOR = Refusal(422, "invalid_cursor")
INVALID_PERSPECTIVE = Refusal(422, "invalid_perspective")
IDEMPOTENCY_KEY_REUSED = Refusal(422, "idempotency_key_reused")
UNKNOWN_LEVEL = Refusal(422, "unknown_level")
INVALID_WEBHOOK_URL = Refusal(422, "invalid_webhook_url")
# Who asks.
UNAUTHORIZED = Refusal(401, "unauthorized")
INVALID_TICKET = Refusal(401, "invalid_ticket")
PLAYERS_ONLY = Refusal(403, "players_only")
PERSPECTIVE_FORBIDDEN = Refusal(403, "perspective_forbidden")
WEBHOOK_NOT_ALLOWED = Refusal(403, "webhook_not_allowed")  # the operator's allow-list says no
# What it asks about.
GAME_NOT_FOUND = Refusal(404, "game_not_found")
VARIANT_NOT_FOUND = Refusal(404, "variant_not_found")
PLAYER_NOT_FOUND = Refusal(404, "player_not_found")
NO_WEBHOOK = Refusal(404, "no_webhook")
TILE_NOT_FOUND = Refusal(404, "tile_not_found")  # not in the witnessed log's signed tree
NO_CHECKPOINT_YET = Refusal(404, "no_checkpoint_yet")  # the log has signed nothing yet
INVALID_TILE_PATH = Refusal(400, "invalid_tile_path")
INVALID_TREE_SIZE = Refusal(422, "invalid_tree_size")
GAME_NOT_OVER = Refusal(409, "game_not_over")
VERSION_MISMATCH = Refusal(412, "version_mismatch")
# Limits and the store.
TOO_MANY_STREAMS = Refusal(429, "too_many_streams")
TOO_MANY_GAMES = Refusal(409, "too_many_games")
STORE_UNAVAILABLE = Refusal(503, "store_unavailable")
TOO_MUCH_CONTENTION = Refusal(503, "too_much_contention")
