"""The bot driver on both stores: two processes driving the same table write each bot turn
once, a bot's command is written only on the version it was decided on, and a game left awaiting
a bot (its process died, or stopped, mid-turn) is played on by another process's driver."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from uuid import UUID

import pytest

from bots.seated import bot_command
from domain.aggregate import Recorded
from domain.commands import Command
from projections.audit import audit
from service.application import Cardledger
from service.application.commands import BotRequest
from service.background.bots import next_move
from service.background.work import BackgroundWork
from service.errors import ApiError
from service.settings import Settings
from service.store.unit_of_work import Outcome
from tests.support.client import SHORT_GAMES
from tests.support.in_process import players
from tests.support.threads import wait_until

VARIANT = "cancellation-hearts"  # six bots, passes and a few hundred moves


def bots_only(ledger: Cardledger, variant: str = VARIANT) -> UUID:
    seats, options = SHORT_GAMES[variant]
    created = ledger.commands.create(
        players(ledger, 1)[0],
        variant=variant,
        seats=seats,
        options=options,
        client_seed="",
        idempotency=None,
        bots=[BotRequest(level=1, seat=seat) for seat in range(seats)],
    )
    return UUID(created.game_id)


def log_of(ledger: Cardledger, game_id: UUID) -> list[Recorded]:
    head = ledger.games.fresh(game_id).version
    return ledger.store.events_between(game_id, 0, head)


def status(ledger: Cardledger, game_id: UUID) -> str:
    return ledger.games.fresh(game_id).state.status


class Counted:
    """A process's play_bot, counting what became of each call."""

    def __init__(self, ledger: Cardledger) -> None:
        self._play = ledger.commands.play_bot
        self.applied = 0
        self.refused = 0
        self._lock = threading.Lock()

    def __call__(
        self, game_id: UUID, seat: int, command: Command, *, version: int, now: datetime
    ) -> Outcome:
        try:
            outcome = self._play(game_id, seat, command, version=version, now=now)
        except ApiError:
            with self._lock:
                self.refused += 1
            raise
        with self._lock:
            self.applied += outcome is Outcome.APPLIED
        return outcome


@contextmanager
def process(settings: Settings) -> Iterator[tuple[Cardledger, BackgroundWork, Counted]]:
    """An API process's application and background work (follower, driver...), running."""
    ledger = Cardledger(settings)
    counted = Counted(ledger)
    ledger.commands.play_bot = counted  # type: ignore[method-assign]
    work = BackgroundWork(ledger)
    work.start()
    try:
        yield ledger, work, counted
    finally:
        work.stop()
        ledger.close()


def test_two_processes_drive_one_table_and_write_each_bot_turn_once(settings: Settings) -> None:
    with process(settings) as (first, _, one), process(settings) as (second, _, other):
        game_id = bots_only(first)
        wait_until(lambda: status(second, game_id) == "finished", "the bots finished")
        events = log_of(second, game_id)
    moves = sum(1 for recorded in events if recorded.command is not None)
    # Every write of either driver is one bot move of the log, and nothing else was written.
    assert one.applied + other.applied == moves
    assert audit(str(game_id), events, bots=bot_command).verdict == "valid"


def test_a_bot_command_is_written_only_on_the_version_it_was_decided_on(
    ledger: Cardledger,
) -> None:
    game_id = bots_only(ledger)  # no driver runs here: the bots wait
    game = ledger.games.fresh(game_id)
    now = ledger.clock()
    move = next_move(game, now)
    assert move is not None
    seat, command = move
    assert ledger.commands.play_bot(game_id, seat, command, version=game.version, now=now) is (
        Outcome.APPLIED
    )
    head = ledger.games.fresh(game_id).version
    # The same turn again (a second process, a retry): refused, nothing written.
    with pytest.raises(ApiError) as refused:
        ledger.commands.play_bot(game_id, seat, command, version=game.version, now=now)
    assert refused.value.code == "version_mismatch"
    assert ledger.games.fresh(game_id).version == head


def test_a_game_left_awaiting_a_bot_is_played_by_a_process_started_later(
    settings: Settings,
) -> None:
    gone = Cardledger(settings)  # wrote the start, then died before any bot acted
    game_id = bots_only(gone)
    gone.read_models.catch_up()  # the log past the game's seats: found from the read models
    gone.close()
    with process(settings) as (ledger, _, counted):
        wait_until(lambda: status(ledger, game_id) == "finished", "the bots finished")
        assert counted.applied > 0


def test_a_driver_stopped_mid_game_leaves_the_rest_to_another_process(
    settings: Settings,
) -> None:
    with process(settings) as (ledger, work, _):
        game_id = bots_only(ledger)
        wait_until(lambda: ledger.games.fresh(game_id).version >= 40, "the bots began")
        work.bots.stop()
        stopped_at = ledger.games.fresh(game_id).version
        assert status(ledger, game_id) == "active"
        with process(settings) as (other, _, counted):
            wait_until(lambda: status(other, game_id) == "finished", "the others finished")
        assert counted.applied > 0
        events = log_of(ledger, game_id)
    assert len(events) > stopped_at
    assert audit(str(game_id), events, bots=bot_command).verdict == "valid"
