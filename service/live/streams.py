"""Server-Sent Events: a game's events and views, live, as the viewer may see them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, Callable
from uuid import UUID

from litestar.response import ServerSentEventMessage

from domain.aggregate import Recorded
from domain.perspective import Perspective
from service.application import Cardledger
from service.application.messaging.messages import MessageId
from service.application.perspectives import viewer_perspective
from service.auth import Principal
from service.live.feeds import Feed, Feeds
from service.live.player_streams import Newsroom, player_stream
from service.threads import on_thread
from service.worker import Worker

PAGE = 100
POLL_SECONDS = 1.0  # a wake-up only says "look again"; this catches one that never came
PING_SECONDS = 15.0


class Live:
    """The process's live feeds, and the streams that follow them. The feeds hear of this
    process's writes as they are saved, and of everyone's through the log follower (they are
    one of its consumers). Players' own streams hear of their messages from the newsroom."""

    def __init__(self, ledger: Cardledger) -> None:
        self.ledger = ledger
        self.feeds = Feeds(ledger.games)
        self.newsroom = Newsroom(ledger.read_models)
        ledger.writes.after_save(self.feeds.offer)
        ledger.telemetry.count_streams(lambda: self.feeds.streams() + self.newsroom.streams())

    @property
    def workers(self) -> list[Worker]:
        return [self.newsroom.worker]

    def player_stream(
        self, player_id: str, after: MessageId | None, *, on_end: Callable[[], None]
    ) -> AsyncGenerator[ServerSentEventMessage, None]:
        return player_stream(self.ledger.messages, self.newsroom, player_id, after, on_end=on_end)

    def stream(
        self,
        principal: Principal | None,
        game_id: UUID,
        after: int,
        *,
        on_end: Callable[[], None] = lambda: None,
    ) -> AsyncGenerator[ServerSentEventMessage, None]:
        return game_stream(self.ledger, self.feeds, principal, game_id, after, on_end=on_end)


async def game_stream(
    ledger: Cardledger,
    feeds: Feeds,
    principal: Principal | None,
    game_id: UUID,
    after: int,
    *,
    on_end: Callable[[], None] = lambda: None,
) -> AsyncGenerator[ServerSentEventMessage, None]:
    """Events after ``after`` (ids are versions, so Last-Event-ID resumes), then a view after
    each batch; ends after the game's last event; comment pings keep idle connections open.

    Live events come from the game's shared feed; a viewer further behind than the feed
    reads its own pages from the store until it has caught up."""
    queries, store = ledger.queries, ledger.store
    aggregate = await on_thread(queries.load, game_id)
    feed, wakeup = feeds.follow(aggregate)
    last_sent = time.monotonic()
    owed_view = False  # events went out from a page: the view after them follows
    try:
        while True:
            wakeup.clear()
            latest = feed.after(after)
            if latest is None:
                page = await on_thread(
                    store.events_between, game_id, after, min(feed.aggregate.version, after + PAGE)
                )
                perspective = viewer_perspective(feed.aggregate.state, principal)
                for event in page:
                    yield event_message(feed, event, perspective)
                    after = event.originator_version
                    owed_view = True
                continue
            current, events = latest
            if events or owed_view:
                owed_view = False
                perspective = viewer_perspective(current.state, principal)
                for event in events:
                    yield event_message(feed, event, perspective)
                after = current.version
                yield ServerSentEventMessage(
                    event="view", data=feed.view_json(current, perspective, ledger.clock())
                )
                last_sent = time.monotonic()
            if current.state.over and after >= current.version:
                yield ServerSentEventMessage(event="end", data=current.state.status)
                return
            try:
                await asyncio.wait_for(wakeup.wait(), timeout=POLL_SECONDS)
            except TimeoutError:
                if time.monotonic() - last_sent >= PING_SECONDS:
                    yield ServerSentEventMessage(comment="ping", data=None)
                    last_sent = time.monotonic()
    finally:
        feeds.unfollow(feed, wakeup)
        on_end()


def event_message(feed: Feed, event: Recorded, perspective: Perspective) -> ServerSentEventMessage:
    """An event as the perspective may see it; its id is its version (for Last-Event-ID)."""
    return ServerSentEventMessage(
        event="event", id=event.originator_version, data=feed.event_json(event, perspective)
    )
