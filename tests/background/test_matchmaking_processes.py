"""The queues with two processes on one store (each its application and background work, as
tests/background/test_bot_driver.py runs them), on both stores: joins racing from many threads
through both never seat a player twice, and a wait for bots that falls due in both processes
seats its player once."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from uuid import UUID

from domain.events import SeatTaken
from service.application import Cardledger
from service.application.matchmaking import BotWait
from service.auth import Principal
from service.background.work import BackgroundWork
from service.errors import ApiError
from service.settings import Settings
from tests.support.in_process import game_events_in_log, players
from tests.support.threads import at_once, wait_until

RACERS = 24
SEATS = 3


@contextmanager
def process(settings: Settings) -> Iterator[Cardledger]:
    """An API process's application with its background work running."""
    ledger = Cardledger(settings)
    work = BackgroundWork(ledger)
    work.start()
    try:
        yield ledger
    finally:
        work.stop()
        ledger.close()


def seats_in_log(ledger: Cardledger) -> Counter[str]:
    """How many seats each player took, over every game in the log."""
    return Counter(
        payload.player_id
        for payload in game_events_in_log(ledger)
        if isinstance(payload, SeatTaken) and payload.bot is None
    )


def retries(ledger: Cardledger, kind: str) -> float:
    """Work of ``kind`` this process did again (``cardledger_retries_total``)."""
    found = ledger.telemetry.registry.get_sample_value("cardledger_retries_total", {"kind": kind})
    return found or 0.0


def conflicts(ledger: Cardledger) -> float:
    """Writes to a queue this process decided again, the queue having moved on."""
    return retries(ledger, "queue_conflict")


def join(ledger: Cardledger, player: Principal, bots: BotWait | None = None) -> str:
    """The status the join answered, or the code it was refused with."""
    try:
        return ledger.matchmaking.join(
            player,
            "open-hand",
            min_seats=SEATS,
            max_seats=SEATS,
            options=None,
            rating_band=None,
            bots=bots,
            client_seed="",
        ).status
    except ApiError as refusal:
        return refusal.code


def test_racing_joins_through_two_processes_never_seat_anyone_twice(settings: Settings) -> None:
    with process(settings) as first, process(settings) as second:
        racers = players(first, RACERS)
        answers = at_once(
            [
                functools.partial(join, (first, second)[index % 2], player)
                for index, player in enumerate(racers)
            ]
        )
        # Under this much contention a join may give up (503, coded); none is otherwise refused.
        assert set(answers) <= {"waiting", "matched", "too_much_contention"}, answers
        queued = [
            p for p, answer in zip(racers, answers, strict=True) if answer != "too_much_contention"
        ]
        taken = seats_in_log(second)
        assert max(taken.values()) == 1, "a player was seated twice"
        state = second.matchmaking.queues.fresh("open-hand").state
        seated = set(state.matched)
        assert seated == set(taken)
        assert len(state.waiting) < SEATS  # every table that could form did
        assert seated | set(state.waiting) == {p.player_id for p in queued}
        assert len(seated) == SEATS * len(set(state.matched.values()))
        assert conflicts(first) + conflicts(second) > 0, "the joins never raced"
        for game_id in set(state.matched.values()):
            game = second.queries.load(UUID(game_id))
            assert game.state.status == "active"
            assert len(game.state.taken) == SEATS


def test_a_wait_for_bots_due_in_two_processes_seats_its_player_once(settings: Settings) -> None:
    with process(settings) as first, process(settings) as second:
        player = players(first, 1)[0]
        assert join(second, player, BotWait(after=0.3, level=1)) == "waiting"

        def matched() -> bool:
            return player.player_id in first.matchmaking.queues.fresh("open-hand").state.matched

        wait_until(matched, "bots took the free seats")
        wait_until(lambda: seats_in_log(second)[player.player_id] == 1, "the game in the log")
        assert seats_in_log(first) == Counter({player.player_id: 1})
