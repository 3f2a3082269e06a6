"""Bot seats in the log (issue 23, "Bots fill seats"): placed at creation or by the creator
before the start, at any seat (seats fill with holes, joins take the lowest free one), refused
with a code otherwise; the bot's seed follows from the game's seed; old logs encode as before."""

from __future__ import annotations

import hashlib
import hmac

import msgspec
import pytest

from bots.contract import bot_draw
from domain import game, game_state
from domain.chain import canonical
from domain.errors import Failure, RuleViolation
from domain.events import BotSeat, Event, GameStarted, HandDealt, SeatTaken
from domain.fairness import bot_seed
from domain.game_state import GameState
from domain.seating import SeatedBot, bot_taken, creation_actor
from tests.rules.scenario import GAME_ID, NOW, SEED

LEVEL_1 = BotSeat(level=1, algorithm=1)


def created(seats: int, bots: list[SeatedBot], variant: str = "open-hand") -> GameState:
    events = game.create(
        game_id=GAME_ID,
        variant_id=variant,
        seat_count=seats,
        options=None,
        creator_id="ann",
        creator_name="Ann",
        client_seed="a",
        seed=SEED,
        bots=bots,
        now=NOW,
    )
    return fold(events)


def fold(events: list[Event]) -> GameState:
    return game_state.fold(game_state.evolve(None, events[0]), events[1:])


def refusal(call: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        call()  # type: ignore[operator]
    return caught.value


def test_a_bot_at_a_later_seat_leaves_a_hole_that_the_next_player_fills() -> None:
    state = created(4, [SeatedBot(bot=LEVEL_1, seat=2)])
    assert [seat is not None for seat in state.seats] == [True, False, True, False]
    assert state.seat(2).bot == LEVEL_1 and state.seat(2).player_id == "bot:2"
    joined = game.join(state, player_id="ben", name="Ben", client_seed="b", now=NOW, version=3)
    assert joined == [SeatTaken(seat=1, player_id="ben", name="Ben", client_seed="b")]
    state = game_state.fold(state, joined)
    last = game.join(state, player_id="cy", name="Cy", client_seed="c", now=NOW, version=4)
    assert isinstance(last[0], SeatTaken) and last[0].seat == 3
    assert isinstance(last[1], GameStarted)  # the last free seat starts the game


def test_bots_without_a_seat_take_the_lowest_free_ones_after_those_placed() -> None:
    state = created(4, [SeatedBot(bot=LEVEL_1), SeatedBot(bot=LEVEL_1, seat=1)])
    assert [info.player_id for _, info in state.taken] == ["ann", "bot:1", "bot:2"]


def test_a_bot_at_seat_0_keeps_the_creator_out_and_a_table_of_bots_starts_at_once() -> None:
    bots = [SeatedBot(bot=BotSeat(level=1, algorithm=1), seat=s) for s in range(3)]
    events = game.create(
        game_id=GAME_ID,
        variant_id="open-hand",
        seat_count=3,
        options=None,
        creator_id="ann",
        creator_name="Ann",
        client_seed="",
        seed=SEED,
        bots=bots,
        now=NOW,
    )
    state = fold(events)
    assert state.seat_of("ann") is None and state.status == "active"
    assert any(isinstance(event, HandDealt) for event in events)
    assert creation_actor(events) == "creator"


def test_the_creator_seats_a_bot_before_the_start() -> None:
    state = created(3, [])
    added = game.add_bot(state, player_id="ann", seat=None, bot=LEVEL_1, now=NOW, version=2)
    assert added == [bot_taken(1, LEVEL_1)]
    placed = game.add_bot(state, player_id="ann", seat=2, bot=LEVEL_1, now=NOW, version=2)
    assert placed == [bot_taken(2, LEVEL_1)]


@pytest.mark.parametrize(
    ("seat", "player", "code", "failure"),
    [
        (0, "ann", "seat_taken", Failure.CONFLICT),
        (3, "ann", "invalid_seat", Failure.INVALID),
        (-1, "ann", "invalid_seat", Failure.INVALID),
        (1, "ben", "not_creator", Failure.FORBIDDEN),
    ],
)
def test_a_bot_is_refused_a_taken_seat_a_seat_out_of_range_and_anyone_but_the_creator(
    seat: int, player: str, code: str, failure: Failure
) -> None:
    state = created(3, [])
    error = refusal(
        lambda: game.add_bot(state, player_id=player, seat=seat, bot=LEVEL_1, now=NOW, version=2)
    )
    assert (error.code, error.failure) == (code, failure)


def test_no_bot_joins_a_started_or_ended_game() -> None:
    state = created(2, [SeatedBot(bot=LEVEL_1, seat=1)])
    assert state.status == "active"
    error = refusal(
        lambda: game.add_bot(state, player_id="ann", seat=None, bot=LEVEL_1, now=NOW, version=9)
    )
    assert error.code == "game_already_started"
    ended = game_state.fold(state, game.cancel(state, by="admin", player_id=None))
    error = refusal(
        lambda: game.add_bot(ended, player_id="ann", seat=None, bot=LEVEL_1, now=NOW, version=9)
    )
    assert error.code == "game_cancelled"


@pytest.mark.parametrize(
    ("bots", "code"),
    [
        ([SeatedBot(bot=LEVEL_1, seat=1)] * 2, "seat_taken"),
        ([SeatedBot(bot=LEVEL_1, seat=5)], "invalid_seat"),
        ([SeatedBot(bot=LEVEL_1)] * 3, "too_many_bots"),
    ],
)
def test_creation_refuses_bots_that_do_not_fit(bots: list[SeatedBot], code: str) -> None:
    assert refusal(lambda: created(3, bots)).code == code


def test_a_seat_without_a_bot_encodes_as_before_bots_existed() -> None:
    """Old logs hash as they always did: the field is absent, not null, for a player."""
    taken = SeatTaken(seat=1, player_id="p", name="P", client_seed="s")
    assert (
        canonical(taken)
        == b'{"client_seed":"s","name":"P","player_id":"p","seat":1,"type":"SeatTaken"}'
    )
    with_bot = msgspec.json.decode(canonical(bot_taken(2, LEVEL_1)))
    assert with_bot["bot"] == {"algorithm": 1, "level": 1}


def test_the_bot_seed_is_the_documented_hmac_of_the_game_seed() -> None:
    message = (
        len(b"cardledger/bot/v1").to_bytes(4, "big")
        + b"cardledger/bot/v1"
        + len(GAME_ID).to_bytes(4, "big")
        + GAME_ID.encode()
        + (3).to_bytes(4, "big")
    )
    assert bot_seed(SEED, GAME_ID, 3) == hmac.new(SEED, message, hashlib.sha256).digest()
    assert bot_seed(SEED, GAME_ID, 3) != bot_seed(SEED, GAME_ID, 2)


def test_a_bot_decision_reads_the_documented_stream() -> None:
    """docs/fairness.md §8: field(tag) ‖ field("bot/N/v") ‖ field(game id) ‖ u32(0) ‖ u64(k)."""

    def field(text: str) -> bytes:
        return len(text.encode()).to_bytes(4, "big") + text.encode()

    seed = bot_seed(SEED, GAME_ID, 2)
    message = field("cardledger/random/v1") + field("bot/2/17") + field(GAME_ID)
    blocks = [
        hmac.new(seed, message + (0).to_bytes(4, "big") + k.to_bytes(8, "big"), hashlib.sha256)
        for k in range(2)
    ]
    expected = b"".join(block.digest() for block in blocks)
    assert bot_draw(seed, GAME_ID, 2, 17).take(64) == expected
