"""The deadline watcher, close to the code: an expiry that fails is tried again, one that is
refused is not, and an expiry decided on a copy that is behind the store (another process moved
the game) is decided again on the stored game: the watcher has dropped the deadline by then, so
nothing else would ever apply it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import UUID, uuid4

from domain.aggregate import Recorded
from domain.events import Event, GameCancelled
from domain.variants.heartbeat.messages import ChoiceTimedOut, TempoCardFlipped
from service.application import Cardledger
from service.auth import Principal
from service.background.deadlines import LONGEST_NAP, RETRY, DeadlineWatcher
from service.errors import GAME_NOT_FOUND
from service.settings import Settings
from tests.support.in_process import new_game, players

START = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
ATTEMPTS = 40  # each new Heartbeat game opens on Pressure with probability 1/4


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


class Expiries:
    """An expire that answers from a script: an exception to raise, or a count."""

    def __init__(self, *answers: int | Exception) -> None:
        self.answers = list(answers)
        self.calls: list[UUID] = []

    def __call__(self, game_id: UUID) -> int:
        self.calls.append(game_id)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


def test_an_expiry_that_fails_is_tried_again_after_a_pause() -> None:
    clock, game = Clock(), uuid4()
    expire = Expiries(ConnectionError("the store is away"), 1)
    watcher = DeadlineWatcher(expire, clock)
    watcher.known({game: START})
    assert watcher.step() == 1
    assert watcher.deadlines == {game: START + RETRY}
    assert watcher.step() == 0  # not retried hot
    clock.now += RETRY
    assert watcher.step() == 1
    assert expire.calls == [game, game]
    assert watcher.deadlines == {}


def test_a_refused_expiry_is_not_tried_again() -> None:
    clock, game = Clock(), uuid4()
    expire = Expiries(GAME_NOT_FOUND("no such game"))
    watcher = DeadlineWatcher(expire, clock)
    watcher.known({game: START})
    assert watcher.step() == 1
    clock.now += RETRY * 5
    assert watcher.step() == 0
    assert watcher.deadlines == {}


def pressure_game(
    here: Cardledger, who: list[Principal], before_join: Callable[[UUID], object]
) -> tuple[UUID, datetime]:
    """A running Heartbeat game on a Pressure round, and its deadline; ``before_join`` sees
    each game while it waits for its second player."""
    for _ in range(ATTEMPTS):
        game_id = new_game(here, who[0], "heartbeat", {"tempo_deck": 12, "pressure_seconds": 5})
        before_join(game_id)
        view = here.commands.join(who[1], game_id, client_seed="", idempotency=None).view
        if view.deadline is not None:
            return game_id, view.deadline
    raise AssertionError("no game opened on a Pressure round")


def test_an_expiry_on_a_stale_copy_is_decided_again_on_the_stored_game(tmp_path: Path) -> None:
    clock = Clock()
    settings = Settings(data_dir=tmp_path, projector="external")
    here = Cardledger(settings, clock=clock)
    there = Cardledger(settings, clock=clock)  # another process on the same store
    try:
        who = players(here, 2)
        # There, each game is known as it was before its second player joined (here).
        game_id, deadline = pressure_game(here, who, there.games.cached)
        assert there.games.cached(game_id).version < here.games.cached(game_id).version
        watcher = DeadlineWatcher(there.commands.expire, clock)
        watcher.known({game_id: deadline})
        clock.now = deadline
        assert watcher.step() == 1
        assert game_id not in watcher.deadlines
        stored = here.store.events_between(game_id, 0, 10_000)
        assert sum(isinstance(event.payload, ChoiceTimedOut) for event in stored) == 1
    finally:
        there.close()
        here.close()


def recorded(game_id: UUID, version: int, payload: Event) -> Recorded:
    return Recorded(
        originator_id=game_id,
        originator_version=version,
        timestamp=START,
        actor="server",
        command_id="c",
        command=None,
        payload=payload,
        prev_hash="",
        hash="",
    )


def test_a_game_that_ends_takes_its_deadline_with_it() -> None:
    ending, going_on = uuid4(), uuid4()
    deadline = START + timedelta(seconds=5)
    flipped = TempoCardFlipped(round=1, tempo="pressure", deadline=deadline)
    watcher = DeadlineWatcher(Expiries(), Clock())
    watcher.observe([recorded(ending, 5, flipped), recorded(going_on, 5, flipped)])
    assert watcher.deadlines == {ending: deadline, going_on: deadline}
    watcher.observe([recorded(ending, 6, GameCancelled(by="admin", seed="s"))])
    assert watcher.deadlines == {going_on: deadline}


def test_the_watcher_sleeps_until_the_next_deadline_and_no_longer() -> None:
    clock = Clock()
    watcher = DeadlineWatcher(Expiries(), clock)
    assert watcher._run_due() == LONGEST_NAP  # nothing to wait for: look again now and then
    watcher.known({uuid4(): START + timedelta(seconds=LONGEST_NAP * 10)})
    assert watcher._run_due() == LONGEST_NAP
    watcher.known({uuid4(): START + timedelta(milliseconds=250)})
    assert watcher._run_due() == 0.25
