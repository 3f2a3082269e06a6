"""Live streams share one feed per game: no stream loads anything to learn of a new event,
whether this process wrote it or another one did."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from service.application import Cardledger
from service.background.follower import LogFollower
from service.live.streams import Live
from service.settings import Settings
from service.tools.local_games import play_to_end, seated
from tests.support.threads import BOUND, finished, wait_until

VIEWERS = 5


@contextmanager
def counted_loads(ledger: Cardledger) -> Iterator[dict[str, int]]:
    counts = {"fresh": 0, "recorded": 0}
    fresh, recorded = ledger.games.fresh, ledger.store.events_between

    def counting(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return call(*args, **kwargs)

        return wrapped

    ledger.games.fresh = counting("fresh", fresh)  # type: ignore[method-assign]
    ledger.store.events_between = counting("recorded", recorded)  # type: ignore[method-assign]
    try:
        yield counts
    finally:
        ledger.games.fresh = fresh  # type: ignore[method-assign]
        ledger.store.events_between = recorded  # type: ignore[method-assign]


class Viewers(threading.Thread):
    """Spectators following one game on an event loop of their own, until the game ends."""

    def __init__(self, live: Live, game_id: UUID) -> None:
        super().__init__(daemon=True)
        self.live, self.game_id = live, game_id
        self.versions: list[list[int]] = [[] for _ in range(VIEWERS)]
        self.caught_up = threading.Event()
        self.head = live.ledger.queries.load(game_id).version

    def run(self) -> None:
        async def follow(into: list[int]) -> None:
            async for message in self.live.stream(None, self.game_id, 0):
                if message.event == "event":
                    into.append(int(message.id))  # type: ignore[arg-type]
                    if all(len(seen) >= self.head for seen in self.versions):
                        self.caught_up.set()
                if message.event == "end":
                    return

        async def main() -> None:
            await asyncio.wait_for(asyncio.gather(*(follow(v) for v in self.versions)), BOUND)

        asyncio.run(main())


def test_streams_of_one_game_load_nothing_for_this_processs_writes(ledger: Cardledger) -> None:
    game_id, who = seated(ledger, 2)
    viewers = Viewers(Live(ledger), game_id)
    viewers.start()
    assert viewers.caught_up.wait(BOUND)
    with counted_loads(ledger) as counts:
        play_to_end(ledger, game_id, who)
        head = ledger.games.cached(game_id).version
        finished([viewers])
    assert counts == {"fresh": 0, "recorded": 0}
    assert viewers.versions == [list(range(1, head + 1))] * VIEWERS


def test_streams_fold_other_processes_writes_from_the_log(settings: Settings) -> None:
    reader, writer = Cardledger(settings), Cardledger(settings)
    live = Live(reader)
    follower = LogFollower(
        reader.store,
        [live.feeds],
        start=lambda: reader.store.recorder.max_notification_id() or 0,
        poll=0.02,
    )
    try:
        game_id, who = seated(writer, 2)
        viewers = Viewers(live, game_id)
        viewers.start()
        assert viewers.caught_up.wait(BOUND)
        follower.start()
        # From where it starts on, it sees the writes: the game's moves come after that.
        wait_until(lambda: follower.position is not None, "the follower took its position")
        with counted_loads(reader) as counts:
            play_to_end(writer, game_id, who)
            head = writer.games.cached(game_id).version
            finished([viewers])
        assert counts == {"fresh": 0, "recorded": 0}
        assert viewers.versions == [list(range(1, head + 1))] * VIEWERS
    finally:
        follower.stop()
        reader.close()
        writer.close()
