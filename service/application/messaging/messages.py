"""A player's messages (projections.player_messages): the page of them after an id, and where
a live stream of them starts."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from projections.player_messages import PlayerMessage, message_id, parse_message_id
from service.auth import Principal
from service.errors import PLAYERS_ONLY, Refusal
from service.read_models.models import ReadModels

MessageId = tuple[int, str]  # (log position, kind): the order of a player's messages
BEFORE_ALL: MessageId = (0, "")


class MessagePage(msgspec.Struct, frozen=True, kw_only=True):
    messages: list[PlayerMessage]
    next_after: str | None  # the id to ask after for the next page; None: none yet


class PlayerMessages:
    def __init__(self, read_models: ReadModels, read_your_writes: Callable[[], None]) -> None:
        self._read_models = read_models
        self._read_your_writes = read_your_writes

    def page(self, principal: Principal, after: MessageId, limit: int) -> MessagePage:
        """The caller's messages after ``after``, oldest first, once the read models reflect
        every write before this call (a page read right after a move shows its messages)."""
        player = listener(principal)
        self._read_your_writes()
        found = self._read_models.messages_of(player, after=after, limit=limit)
        last = found[-1].id if found else None
        return MessagePage(messages=found, next_after=last if len(found) == limit else None)

    def read(self, player_id: str, after: MessageId, limit: int) -> list[PlayerMessage]:
        """A live stream's next messages: as the read models stand (the stream waits for more)."""
        return self._read_models.messages_of(player_id, after=after, limit=limit)

    def now(self, player_id: str) -> MessageId:
        """The id of the player's newest message: a stream that starts now starts after it."""
        return self._read_models.latest_message(player_id) or BEFORE_ALL


def listener(principal: Principal) -> str:
    """The player whose messages these are (the operator has none)."""
    if principal.player_id is None:
        raise PLAYERS_ONLY("the operator sits at no game and has no messages")
    return principal.player_id


def parse_after(text: str, refusal: Refusal) -> MessageId:
    """A message id as a client sends it back (``0`` for before the first message)."""
    if text.strip() == "0":
        return BEFORE_ALL
    parsed = parse_message_id(text)
    if parsed is None:
        raise refusal(f"a message id looks like {message_id(1234, 'your_turn')!r} (or 0)")
    return parsed
