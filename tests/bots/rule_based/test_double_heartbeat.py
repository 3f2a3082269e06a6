"""Level 2 of Double Heartbeat: it never sends a refused command, it plays as the rules of thumb
say in positions reached by seeded games, and it beats the random level clearly."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import pytest

from bots.contract import Player, Random, bot_draw
from bots.duel import duel
from bots.rule_based.double_heartbeat import DoubleHeartbeatRuleBased
from bots.rule_based.double_heartbeat.plan import cost, counts_of, plays_besides_bombs
from bots.rule_based.double_heartbeat.tracking import beatable, unseen
from bots.table import bot_seed, new_game, play_out
from domain.aggregate import GameAggregate
from domain.cards import CLIMBING_ORDER, rank
from domain.choices import Choice, representatives
from domain.commands import Command
from domain.variants.double_heartbeat.combinations import read
from domain.variants.double_heartbeat.messages import BuryCards, PassTurn, PlayCombination
from domain.variants.double_heartbeat.view import DoubleHeartbeatView
from projections.views import View

VARIANT = "double-heartbeat"
GAMES = int(os.environ.get("CARDLEDGER_BOT_GAMES", "6"))
LEVEL_2 = DoubleHeartbeatRuleBased()
OPTION_SETS: tuple[dict[str, Any] | None, ...] = (
    None,
    {"dealer_exchange": "none", "betrayal": "forbidden", "hands": 2},
)


def seeds(deal: int, seats: int) -> list[bytes]:
    return [bot_seed(VARIANT, deal, seat) for seat in range(seats)]


def covered(command: Command, view: View) -> bool:
    """Whether ``command`` is listed in the view or stands in one of its choice forms."""
    encoded = msgspec.json.encode(command)
    if any(encoded == msgspec.json.encode(listed) for listed in view.legal_commands):
        return True
    return any(_in_form(command, form) for form in view.choice_forms)


def _in_form(command: Command, form: Choice) -> bool:
    """The form's fixed part, then whole entries of ``from`` (as a multiset), min..max of them."""
    fixed: Sequence[str] = getattr(form.command, form.field)
    cards: Sequence[str] = getattr(command, form.field, ())
    if type(command) is not type(form.command) or list(cards[: len(fixed)]) != list(fixed):
        return False
    if msgspec.structs.replace(command, **{form.field: list(fixed)}) != form.command:
        return False
    picked = Counter(cards[len(fixed) :])
    size = len(form.options[0]) if form.options else 1
    offered = Counter(card for entry in form.options for card in entry)
    entries, rest = divmod(picked.total(), size)
    return not rest and not picked - offered and form.min <= entries <= form.max


def check_covered(game: GameAggregate, seat: int, view: View, command: Command) -> None:
    if isinstance(command, PlayCombination | BuryCards | PassTurn):
        assert covered(command, view), (seat, view.version, command)


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_level_2_finishes_every_game_without_a_refused_command(seats: int) -> None:
    for deal in range(GAMES):
        options = OPTION_SETS[deal // 2 % len(OPTION_SETS)]
        mixed = deal % 2 == 1
        players: list[Player] = [
            Random() if mixed and (seat + deal) % 3 == 0 else LEVEL_2 for seat in range(seats)
        ]
        game = new_game(VARIANT, seats, deal, options)
        play_out(game, players, seeds(deal, seats), watch=check_covered)
        assert game.state.status == "finished", (deal, game.state.status)
        assert game.state.outcome is not None and game.state.outcome.reason == "complete"


# --- the plan: what a hand costs and what the unseen cards could beat ---------------------------


@pytest.mark.parametrize(
    ("cards", "plays"),
    [
        ("3S 4H 5D 6C 7S", 1),  # a straight
        ("3S 3H 4D 4C 5S 5H", 1),  # consecutive pairs
        ("3S 3H 3D 4C 4S 4H 9S 9H QD QC", 1),  # an airplane with two pairs as wings
        ("3S 3H 3D 9S 9H KD", 2),  # a triple with a pair, and a single
        ("3S 5H 7D 9C JS", 5),  # no run: five singles
    ],
)
def test_the_plan_counts_the_plays_a_hand_needs(cards: str, plays: int) -> None:
    assert plays_besides_bombs(counts_of(cards.split())) == plays


def test_a_held_bomb_costs_less_than_nothing_and_more_cards_of_it_less_still() -> None:
    four = cost(counts_of(["7S", "7H", "7D", "7C"]))
    five = cost(counts_of(["7S", "7H", "7D", "7C", "7S"]))
    assert five < four < 0 < cost(counts_of(["7S", "7H", "7D"]))


def test_a_play_is_beatable_while_unseen_cards_could_top_it() -> None:
    ace = read(["AS"])
    twos_seen = unseen(["2S", "2S", "2H", "2H", "2D", "2D", "2C", "2C"])
    assert beatable(ace, unseen([]))
    assert not beatable(ace, twos_seen)
    assert beatable(read(["KS", "KH"]), twos_seen), "a pair of aces is still out"
    top_straight = read(["10S", "JH", "QD", "KC", "AS"])
    assert not beatable(top_straight, unseen([]))


# --- rule scenarios: seeded games played until a position arises --------------------------------


class Reached(Exception):
    def __init__(self, view: View) -> None:
        self.view = view


def position(
    seats: int, wanted: Callable[[View, DoubleHeartbeatView], bool], deals: int = 40
) -> View:
    """The first view (of the seat to act) where ``wanted`` holds, in deals played by level 2
    against random players (seat 0 is level 2)."""

    def stop(game: GameAggregate, seat: int, view: View, command: Command) -> None:
        if wanted(view, view.table):
            raise Reached(view)

    players: list[Player] = [LEVEL_2, *[Random()] * (seats - 1)]
    for deal in range(deals):
        try:
            play_out(new_game(VARIANT, seats, deal), players, seeds(deal, seats), watch=stop)
        except Reached as reached:
            return reached.view
    raise AssertionError("no deal reached the position")


def decide(view: View) -> Command:
    assert view.seat is not None
    return LEVEL_2.choose(view, bot_draw(b"\x07" * 32, view.game_id, view.seat, view.version))


def held(view: View) -> Counter[str]:
    return Counter(rank(card) for card in view.hand or ())


def plays_in(view: View) -> list[PlayCombination]:
    listed = [c for c in view.legal_commands if isinstance(c, PlayCombination)]
    return listed + [
        c
        for form in view.choice_forms
        for c in representatives(form)
        if isinstance(c, PlayCombination)
    ]


def bombs_in(view: View) -> list[PlayCombination]:
    return [c for c in plays_in(view) if read(c.cards, c.combination).is_bomb]


def opponents_sizes(view: View, table: DoubleHeartbeatView) -> list[int]:
    ally = table.allies[view.seat or 0]
    return [
        size
        for seat, size in enumerate(view.hand_sizes)
        if seat not in (view.seat, ally) and size > 0
    ]


def facing(view: View, table: DoubleHeartbeatView) -> bool:
    """Seat 0 to play over an opponent's play."""
    return view.seat == 0 and table.top is not None and table.allies[0] != table.top.seat


def test_the_dealer_buries_its_surplus_and_never_a_card_of_a_bomb() -> None:
    view = position(3, lambda v, t: t.phase == "bury" and v.seat == 0)
    counts = held(view)
    assert any(n >= 4 for n in counts.values()), "the position should hold a bomb"
    command = decide(view)
    assert isinstance(command, BuryCards)
    assert len(command.cards) == 2
    assert all(counts[rank(card)] < 4 for card in command.cards)


def test_the_opening_lead_is_a_low_combination_never_a_bomb_nor_a_top_card() -> None:
    view = position(
        4,
        lambda v, t: (
            v.seat == 0 and t.lead_kind == "opening" and t.top is None and bool(bombs_in(v))
        ),
    )
    command = decide(view)
    assert isinstance(command, PlayCombination)
    assert not read(command.cards, command.combination).is_bomb
    assert not {rank(card) for card in command.cards} & {"A", "2"}


def test_a_follow_never_breaks_a_bomb_when_another_card_beats_the_top() -> None:
    def wanted(v: View, t: DoubleHeartbeatView) -> bool:
        counts = held(v)
        singles = [c for c in plays_in(v) if c.combination == "single"]
        return (
            facing(v, t)
            and t.top is not None
            and t.top.combination == "single"
            and any(counts[rank(c.cards[0])] >= 4 for c in singles)
            and any(counts[rank(c.cards[0])] < 4 for c in singles)
        )

    view = position(4, wanted)
    command = decide(view)
    assert isinstance(command, PlayCombination)
    assert all(held(view)[rank(card)] < 4 for card in command.cards)


def test_it_passes_over_its_ally_rather_than_bomb_it() -> None:
    view = position(
        4,
        lambda v, t: (
            v.seat == 0
            and t.top is not None
            and t.allies[0] == t.top.seat
            and bool(bombs_in(v))
            and min(opponents_sizes(v, t)) <= 3
        ),
    )
    assert decide(view) == PassTurn()


def test_it_goes_out_when_one_play_empties_its_hand() -> None:
    view = position(
        4,
        lambda v, t: (
            facing(v, t)
            and len(plays_in(v)) > 1
            and any(len(c.cards) == len(v.hand or ()) for c in plays_in(v))
        ),
    )
    command = decide(view)
    assert isinstance(command, PlayCombination)
    assert sorted(command.cards) == sorted(view.hand or ())


def only_bombs_beat(v: View) -> bool:
    plays = plays_in(v)
    return bool(plays) and all(read(c.cards, c.combination).is_bomb for c in plays)


def test_it_bombs_an_opponent_about_to_go_out() -> None:
    view = position(
        4,
        lambda v, t: (
            facing(v, t)
            and t.top is not None
            and 0 < v.hand_sizes[t.top.seat] <= 3
            and only_bombs_beat(v)
        ),
    )
    command = decide(view)
    assert isinstance(command, PlayCombination)
    assert read(command.cards, command.combination).is_bomb


def test_it_keeps_its_bombs_while_nobody_is_close_to_going_out() -> None:
    """The hand needs several plays besides its bombs: the lead a bomb wins would not end it."""
    view = position(
        4,
        lambda v, t: (
            facing(v, t)
            and min(opponents_sizes(v, t)) >= 10
            and plays_besides_bombs(counts_of(v.hand or ())) >= 4
            and only_bombs_beat(v)
        ),
    )
    assert decide(view) == PassTurn()


def lone_lowest(view: View) -> bool:
    """The lowest card held is the only one of its rank (a single is the natural lead)."""
    counts = held(view)
    return counts[min(counts, key=CLIMBING_ORDER.index)] == 1


def test_it_leads_no_single_while_an_opponent_holds_one_card() -> None:
    view = position(
        4,
        lambda v, t: (
            v.seat == 0
            and t.top is None
            and t.phase == "play"
            and min(opponents_sizes(v, t), default=0) == 1
            and lone_lowest(v)
            and len(held(v)) < len(v.hand or ())
        ),
    )
    command = decide(view)
    assert isinstance(command, PlayCombination)
    assert len(command.cards) > 1


def test_level_2_beats_the_random_level_clearly() -> None:
    result = duel(VARIANT, 3, LEVEL_2, Random(), range(4))
    assert result.low > 0.5, result


def sure_and_last(view: View, play: PlayCombination) -> bool:
    """``play`` cannot be beaten by unseen cards (bombs aside) and leaves one combination."""
    table: DoubleHeartbeatView = view.table
    hand = view.hand or ()
    out = unseen((*hand, *table.discards, *(table.buried or ())))
    left = Counter(hand) - Counter(play.cards)
    combination = read(play.cards, play.combination)
    return (
        not combination.is_bomb
        and not beatable(combination, out)
        and plays_besides_bombs(counts_of(left.elements())) == 1
    )


def test_with_a_sure_winner_and_one_more_combination_it_cashes_the_winner_first() -> None:
    def wanted(v: View, t: DoubleHeartbeatView) -> bool:
        return (
            v.seat == 0
            and t.top is None
            and t.phase == "play"
            and any(sure_and_last(v, play) for play in plays_in(v))
            and not all(sure_and_last(v, play) for play in plays_in(v))
        )

    view = position(4, wanted)
    command = decide(view)
    assert isinstance(command, PlayCombination)
    assert sure_and_last(view, command)
