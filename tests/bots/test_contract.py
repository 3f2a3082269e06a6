"""The bot contract: what a bot is offered, how it draws, and that the random level finishes
every variant without a refused command."""

from __future__ import annotations

import os
from collections import Counter

import msgspec
import pytest

from bots.contract import Random, below, bot_draw, moves, uniform
from bots.table import START, bot_seed, new_game, play_out, seat_view
from domain.choices import Choice, choice, commands_of
from domain.commands import Leave, VoteCancel
from domain.fairness import RandomStream
from domain.variants import VARIANTS
from domain.variants.cancellation_hearts.messages import PassCards

GAMES = int(os.environ.get("CARDLEDGER_BOT_GAMES", "40"))


def seatings() -> list[tuple[str, int]]:
    return [(v.id, n) for v in VARIANTS.values() for n in sorted({v.min_seats, v.max_seats})]


@pytest.mark.parametrize(("variant", "seats"), seatings())
def test_random_bots_finish_every_game_without_a_refused_command(variant: str, seats: int) -> None:
    for deal in range(GAMES // 4 if seats > 4 else GAMES):
        game = new_game(variant, seats, deal)
        play_out(game, [Random()] * seats, [bot_seed(variant, deal, s) for s in range(seats)])
        assert game.state.status == "finished", (deal, game.state.status)
        assert game.state.outcome is not None and game.state.outcome.reason == "complete"


def test_a_bot_is_offered_every_variant_move_once_and_never_leave_or_vote_cancel() -> None:
    game = new_game("cancellation-hearts", 6, 0)
    view = seat_view(game, 0, START)
    offered = moves(view)
    assert not any(isinstance(m, Leave | VoteCancel) for m in offered)
    forms = [m for m in offered if isinstance(m, Choice)]
    assert forms == view.choice_forms and forms, "the pass is a form: offered once, as the form"
    plain = [m for m in offered if not isinstance(m, Choice)]
    assert len(plain) == len(view.legal_commands) - 2 - sum(
        len(range(f.min, min(f.max, len(f.options)) + 1)) for f in forms
    )


def test_uniform_reaches_every_command_of_a_form_evenly() -> None:
    form = choice(PassCards(cards=()), [["2S"], ["3S"], ["4S"], ["5S"]], least=2, most=2)
    stream = RandomStream(b"\x01" * 32, "g", ())
    counts = Counter(
        msgspec.json.encode(uniform([form], stream.draw(f"d{n}"))) for n in range(3000)
    )
    assert len(counts) == form.count == len(commands_of(form)) == 6
    assert min(counts.values()) > 3000 / 6 * 0.8


def test_below_is_uniform_beyond_32_bits() -> None:
    stream = RandomStream(b"\x02" * 32, "g", ())
    bound = 3 << 40
    draws = [below(stream.draw(f"b{n}"), bound) for n in range(2000)]
    assert all(0 <= d < bound for d in draws)
    assert sum(d >= bound // 2 for d in draws) == pytest.approx(1000, abs=150)


def test_a_decision_is_a_function_of_seed_seat_and_version_alone() -> None:
    game = new_game("open-hand", 4, 3)
    view = seat_view(game, game.state.rules.to_act(game.state.table)[0], START)
    seed = bot_seed("open-hand", 3, view.seat or 0)
    picks = {
        msgspec.json.encode(
            Random().choose(view, bot_draw(seed, view.game_id, view.seat or 0, view.version))
        )
        for _ in range(5)
    }
    assert len(picks) == 1
    draws = {bot_draw(seed, view.game_id, s, v).take(8) for s in range(3) for v in range(3)}
    assert len(draws) == 9, "each seat and version has a draw of its own"
