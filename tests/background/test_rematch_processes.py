"""Rematches with two processes on one store, on both stores: the last yes sent through both
processes at once makes exactly one new game (the rematch stream's version check decides)."""

from __future__ import annotations

import functools
from collections import Counter
from uuid import UUID

from domain.errors import RuleViolation
from domain.events import GameCreated
from service.application import Cardledger
from service.auth import Principal
from service.errors import ApiError
from service.settings import Settings
from tests.background.test_matchmaking_processes import process, retries
from tests.support.in_process import game_events_in_log, new_game, players
from tests.support.threads import at_once

GAMES = 16  # rematches raced; each race may or may not clash, together they do


def forfeited(ledger: Cardledger, first: Principal, second: Principal) -> str:
    """A two-seat game that finished when its second player left (a forfeit)."""
    game_id = new_game(ledger, first)
    ledger.commands.join(second, game_id, client_seed="", idempotency=None)
    ledger.commands.send(second, game_id, {"type": "leave"}, idempotency=None, if_match=None)
    assert ledger.games.fresh(game_id).state.status == "finished"
    return str(game_id)


def accept(ledger: Cardledger, player: Principal, game_id: str) -> str:
    """The rematch's status after the answer, or the code it was refused with."""
    try:
        return ledger.rematches.accept(player, UUID(game_id), "").status
    except (ApiError, RuleViolation) as refusal:
        return refusal.code


def rematches_in_log(ledger: Cardledger) -> Counter[str]:
    """How many games in the log are a rematch of each game."""
    return Counter(
        payload.rematch_of
        for payload in game_events_in_log(ledger)
        if isinstance(payload, GameCreated) and payload.rematch_of is not None
    )


def conflicts(ledger: Cardledger) -> float:
    return retries(ledger, "rematch_conflict")


def test_the_last_yes_through_two_processes_at_once_makes_one_game(settings: Settings) -> None:
    with process(settings) as first, process(settings) as second:
        offerer, other = players(first, 2)
        ended = [forfeited(first, offerer, other) for _ in range(GAMES)]
        for game_id in ended:
            assert accept(second, offerer, game_id) == "offered"
        for game_id in ended:
            answers = at_once(
                [functools.partial(accept, ledger, other, game_id) for ledger in (first, second)]
            )
            assert sorted(answers) == ["made", "rematch_made"]
        made = rematches_in_log(first)
        assert made == Counter(dict.fromkeys(ended, 1))
        for game_id in ended:
            assert second.rematches.status(UUID(game_id)).status == "made"
        assert conflicts(first) + conflicts(second) > 0, "the answers never raced"
