"""Random games played in the domain while a fast simulator plays the same moves beside them
(the ``test_*`` modules beside this one)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from bots.contract import Random
from bots.search import value
from bots.table import bot_seed, new_game, play_out
from domain.aggregate import GameAggregate
from domain.commands import Command
from projections.views import View


class Beside(Protocol):
    """A watcher that plays each move it sees in its simulator's ``position``, counting them."""

    position: Any
    checked: int

    def __call__(self, game: GameAggregate, seat: int, seen: View, command: Command) -> None: ...


def play_beside(
    variant: str,
    deals: range,
    options: dict[str, Any],
    watcher: Callable[[int], Beside],
    points: Callable[[Any], list[int]],
) -> int:
    """Each deal played to its end by random players at 2 seats or more (by deal number, up to
    the variant's most), watched by ``watcher(deal)``: the simulator's game is over too, with
    the same ``points`` and values as the domain's. The moves watched."""
    most = new_game(variant, 2, 0).state.rules.max_seats
    checked = 0
    for deal in deals:
        seats = 2 + deal % (most - 1)
        game = new_game(variant, seats, deal, options)
        watch = watcher(deal)
        seeds = [bot_seed(variant, deal, seat) for seat in range(seats)]
        play_out(game, [Random()] * seats, seeds, watch=watch)
        state = game.state
        assert watch.position is not None and watch.position.to_move() == -1
        assert state.outcome is not None
        assert points(watch.position) == list(state.outcome.scores)
        assert watch.position.values() == [
            value(state.rules, state.table, seat) for seat in range(seats)
        ]
        checked += watch.checked
    return checked
