"""Heartbeat (RULES.md §1) as scenarios: given events → when a command → then events or an error."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta

import msgspec
import pytest

from domain import game, game_state
from domain.cards import standard_deck
from domain.commands import Command, Leave
from domain.errors import Failure, RuleViolation
from domain.events import Event, GameFinished, HandDealt, PlayerLeft, Secret
from domain.fairness import RandomStream
from domain.game_state import GameState
from domain.perspective import FULL, PUBLIC, Perspective, redact
from domain.turns import Play
from domain.variant import Turn
from domain.variants.heartbeat import Heartbeat
from domain.variants.heartbeat.messages import (
    CardChosen,
    CardShown,
    ChoicesRevealed,
    ChoiceTimedOut,
    ChooseCard,
    RevealCard,
    RoundScored,
    TempoCardFlipped,
    TempoDeckShuffled,
)
from domain.variants.heartbeat.table import card_value
from projections.views import view
from tests.rules.scenario import NOW, SEED, given, player, refused_creation, started

HANDS = [
    ("KS", "9H", "4C", "AS", "BJ"),
    ("QD", "7D", "3H", "2C", "10C"),
    ("JH", "8S", "5D", "AH", "6C"),
]
NORMAL = ("reverse", "double", "double")  # a tempo deck whose top card is not dealt with here


def flipped(round_: int, tempo: str, seconds: int = 5, at: datetime = NOW) -> TempoCardFlipped:
    deadline = at + timedelta(seconds=seconds) if tempo == "pressure" else None
    return TempoCardFlipped(round=round_, tempo=tempo, deadline=deadline)  # type: ignore[arg-type]


def heartbeat(
    tempo: tuple[str, ...] = (), options: dict | None = None, hands=HANDS, seconds: int = 5
) -> GameState:
    """A dealt game; ``tempo`` is the face-down tempo deck, top first (empty: no tempo deck)."""
    options = {"tempo_deck": 12 if tempo else 0, **(options or {})}
    events: list[Event] = started("heartbeat", hands, options)
    if tempo:
        deck = TempoDeckShuffled(size=len(tempo), cards=Secret(owner=None, value=tempo))
        events += [deck, flipped(1, tempo[0], seconds)]
    return given(events)


def act(
    state: GameState, seat: int, command: Command, now: datetime = NOW
) -> tuple[GameState, list[Event]]:
    events = game.act(state, player_id=player(seat), command=command, now=now, version=100)
    return game_state.fold(state, events), events


def moves(state: GameState, *steps: tuple[int, Command]) -> tuple[GameState, list[Event]]:
    every: list[Event] = []
    for seat, command in steps:
        state, events = act(state, seat, command)
        every += events
    return state, every


def choose(card: str) -> ChooseCard:
    return ChooseCard(card=card)


def reveal(card: str) -> RevealCard:
    return RevealCard(card=card)


def refused(state: GameState, seat: int, command: Command, now: datetime = NOW) -> RuleViolation:
    with pytest.raises(RuleViolation) as error:
        act(state, seat, command, now)
    return error.value


def scored(events: list[Event]) -> RoundScored:
    return next(e for e in events if isinstance(e, RoundScored))


def shown_json(state: GameState, seat: int | None, events: list[Event]) -> bytes:
    """Everything a perspective is served: its view and the redacted events."""
    perspective = Perspective(seat=seat)
    current = view(state, version=1, chain_head="head", perspective=perspective)
    return msgspec.json.encode([current, [redact(e, perspective) for e in events]])


# --- values and comparison -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "value"),
    [
        ("AS", 1),
        ("2H", 2),
        ("7D", 7),
        ("10C", 10),
        ("JH", 10),
        ("QS", 10),
        ("KD", 10),
        ("BJ", 0),
        ("RJ", 0),
    ],
)
def test_card_values(card: str, value: int) -> None:
    assert card_value(card) == value


def test_highest_value_wins_a_round_without_tempo_card() -> None:
    state, events = moves(heartbeat(), (0, choose("9H")), (1, choose("7D")), (2, choose("8S")))
    assert [type(e) for e in events] == [CardChosen] * 3 + [ChoicesRevealed, RoundScored]
    assert events[3] == ChoicesRevealed(
        round=1, plays=(Play(0, "9H"), Play(1, "7D"), Play(2, "8S"))
    )
    assert events[4] == RoundScored(round=1, tempo=None, winners=(0,), chips=(1, 0, 0))
    assert state.table.chips == (1, 0, 0)
    assert state.rules.public_table(state.table, PUBLIC).round == 2


def test_every_player_tied_for_best_wins_suits_never_matter() -> None:
    # K, Q and J are all worth 10.
    _, events = moves(heartbeat(), (0, choose("KS")), (1, choose("QD")), (2, choose("JH")))
    assert scored(events).winners == (0, 1, 2)
    assert scored(events).chips == (1, 1, 1)


def test_reverse_lowest_wins_and_a_joker_beats_an_ace() -> None:
    state = heartbeat(("reverse", "double", "double"))
    assert state.rules.public_table(state.table, PUBLIC).tempo == "reverse"
    _, events = moves(state, (0, choose("BJ")), (1, choose("2C")), (2, choose("AH")))
    assert scored(events) == RoundScored(round=1, tempo="reverse", winners=(0,), chips=(1, 0, 0))
    _, events = moves(state, (0, choose("AS")), (1, choose("2C")), (2, choose("AH")))
    assert scored(events).winners == (0, 2)


def test_without_jokers_the_ace_is_the_lowest() -> None:
    hands = [("AS", "2S", "3S", "4S", "5S"), ("2H", "3H", "4H", "5H", "6H")]
    state = heartbeat(("reverse", "double", "double"), {"jokers": "removed"}, hands=hands)
    _, events = moves(state, (0, choose("AS")), (1, choose("2H")))
    assert scored(events).winners == (0,)


def test_double_gives_two_chips_to_each_winner_by_default() -> None:
    state = heartbeat(("double", "reverse", "reverse"))
    _, events = moves(state, (0, choose("KS")), (1, choose("10C")), (2, choose("8S")))
    assert scored(events) == RoundScored(round=1, tempo="double", winners=(0, 1), chips=(2, 2, 0))


def test_double_others_one_gives_every_non_winner_a_chip() -> None:
    state = heartbeat(("double", "reverse", "reverse"), {"double_rule": "others_one"})
    _, events = moves(state, (0, choose("KS")), (1, choose("7D")), (2, choose("8S")))
    assert scored(events).chips == (2, 1, 1)


def test_others_one_changes_nothing_outside_a_double_round() -> None:
    state = heartbeat(("reverse", "double", "double"), {"double_rule": "others_one"})
    _, events = moves(state, (0, choose("KS")), (1, choose("7D")), (2, choose("8S")))
    assert scored(events).chips == (0, 1, 0)


# --- secret simultaneous choice --------------------------------------------------------------


def test_a_choice_is_secret_until_everyone_has_chosen() -> None:
    state, events = act(heartbeat(), 0, choose("KS"))
    assert len(events) == 1
    chosen = events[0]
    assert isinstance(chosen, CardChosen)
    assert (chosen.seat, chosen.card.owner, chosen.card.value) == (0, 0, "KS")
    assert chosen.card.salt, "a secret card must be salted"
    for seat in (None, 1, 2):
        perspective = Perspective(seat=seat)
        assert redact(chosen, perspective).card == Secret(owner=0)
        table = state.rules.public_table(state.table, perspective)
        assert table.chosen == (True, False, False)
        assert table.choices == (None, None, None)
        assert b'"KS"' not in shown_json(state, seat, events)
    own = state.rules.public_table(state.table, Perspective(seat=0))
    assert own.choices == ("KS", None, None)
    assert state.rules.hand(state.table, 0) == ("BJ", "AS", "4C", "9H")
    assert state.rules.public_table(state.table, FULL).choices == ("KS", None, None)
    assert state.rules.to_act(state.table) == (1, 2)


def test_all_choices_are_revealed_in_one_event() -> None:
    state, _ = moves(heartbeat(), (0, choose("KS")), (1, choose("QD")))
    _, events = act(state, 2, choose("5D"))
    revealed = [e for e in events if isinstance(e, ChoicesRevealed)]
    assert revealed == [
        ChoicesRevealed(round=1, plays=(Play(0, "KS"), Play(1, "QD"), Play(2, "5D")))
    ]


def test_a_choice_is_final() -> None:
    state, _ = act(heartbeat(), 0, choose("KS"))
    assert refused(state, 0, choose("9H")).code == "already_chosen"
    assert state.rules.legal_commands(state.table, 0) == []


def test_every_awaited_seat_is_listed_and_may_act_in_any_order() -> None:
    state = heartbeat()
    assert state.rules.to_act(state.table) == (0, 1, 2)
    state, _ = act(state, 2, choose("JH"))
    assert state.rules.to_act(state.table) == (0, 1)
    state, _ = act(state, 0, choose("KS"))
    assert state.rules.to_act(state.table) == (1,)


@pytest.mark.parametrize(
    ("card", "code", "failure"),
    [
        ("QD", "card_not_in_hand", Failure.CONFLICT),  # in seat 1's hand: only "your hand"
        ("RJ", "card_not_in_hand", Failure.CONFLICT),
        ("ZZ", "unknown_card", Failure.INVALID),
        ("ks", "unknown_card", Failure.INVALID),
    ],
)
def test_bad_cards_are_refused_speaking_only_of_the_callers_hand(
    card: str, code: str, failure: Failure
) -> None:
    error = refused(heartbeat(), 0, choose(card))
    assert (error.code, error.failure) == (code, failure)
    assert "seat" not in error.message and "player" not in error.message


def test_the_same_refusal_whether_or_not_another_seat_chose_the_card() -> None:
    # Seat 1 asking for a card seat 0 holds: the same answer before and after seat 0 chose it.
    before = refused(heartbeat(), 1, choose("KS"))
    state, _ = act(heartbeat(), 0, choose("KS"))
    after = refused(state, 1, choose("KS"))
    assert (before.code, before.message) == (after.code, after.message)


def test_legal_commands_list_only_the_callers_cards() -> None:
    state = heartbeat()
    assert state.rules.legal_commands(state.table, 1) == [
        choose(card) for card in ("2C", "3H", "7D", "10C", "QD")
    ]


# --- non-interference ------------------------------------------------------------------------


@pytest.mark.parametrize("observer", [None, 0, 2])
def test_another_players_unrevealed_choice_does_not_change_what_an_observer_is_served(
    observer: int | None,
) -> None:
    served = []
    for secret in ("QD", "3H"):
        state, events = moves(heartbeat(), (0, choose("9H")), (1, choose(secret)))
        served.append(shown_json(state, observer, events))
    assert served[0] == served[1]
    # ... while the chooser is served something different: the test can see a difference.
    chooser = []
    for secret in ("QD", "3H"):
        state, events = moves(heartbeat(), (0, choose("9H")), (1, choose(secret)))
        chooser.append(shown_json(state, 1, events))
    assert chooser[0] != chooser[1]


@pytest.mark.parametrize("observer", [None, 0, 2])
def test_a_rank_only_reveal_hides_the_suit_from_everyone_else(observer: int | None) -> None:
    hands = [HANDS[0], ("7D", "7C", "3H", "2C", "10C"), HANDS[2]]
    served = []
    for card in ("7D", "7C"):
        state = heartbeat(("reveal", "double", "double"), {"reveal_shows": "rank"}, hands=hands)
        state, events = act(state, 1, reveal(card))
        served.append(shown_json(state, observer, events))
    assert served[0] == served[1]


# --- Reveal ----------------------------------------------------------------------------------


def test_reveal_round_every_player_reveals_then_chooses_among_the_other_cards() -> None:
    state = heartbeat(("reveal", "double", "double"))
    assert state.rules.public_table(state.table, PUBLIC).phase == "reveal"
    assert state.rules.to_act(state.table) == (0, 1, 2)
    assert state.rules.legal_commands(state.table, 0)[0] == reveal("BJ")
    assert refused(state, 0, choose("KS")).code == "reveal_first"

    state, events = act(state, 0, reveal("KS"))
    assert events == [CardShown(round=1, seat=0, rank="K", card="KS")]
    assert refused(state, 0, reveal("9H")).code == "already_revealed"
    assert refused(state, 0, choose("9H")).code == "reveal_in_progress"
    assert refused(state, 1, reveal("KS")).code == "card_not_in_hand"
    assert state.rules.to_act(state.table) == (1, 2)
    assert state.rules.legal_commands(state.table, 0) == []

    state, _ = moves(state, (1, reveal("2C")), (2, reveal("AH")))
    table = state.rules.public_table(state.table, Perspective(seat=2))
    assert table.phase == "choose"
    assert [(s.seat, s.card) for s in table.shown] == [(0, "KS"), (1, "2C"), (2, "AH")]
    assert state.rules.hand(state.table, 0) == ("BJ", "AS", "4C", "9H", "KS")  # still held
    assert refused(state, 0, choose("KS")).code == "revealed_card_not_playable"
    assert choose("KS") not in state.rules.legal_commands(state.table, 0)

    state, events = moves(state, (0, choose("9H")), (1, choose("QD")), (2, choose("JH")))
    assert scored(events).winners == (1, 2)
    # The next round, the revealed card may be played.
    assert choose("KS") in state.rules.legal_commands(state.table, 0)
    state, events = moves(state, (0, choose("KS")), (1, choose("3H")), (2, choose("8S")))
    assert scored(events) == RoundScored(round=2, tempo="double", winners=(0,), chips=(2, 0, 0))


def test_no_reveal_outside_a_reveal_round() -> None:
    assert refused(heartbeat(), 0, reveal("KS")).code == "no_reveal_now"
    state = heartbeat(("reveal", "double", "double"))
    state, _ = moves(state, (0, reveal("KS")), (1, reveal("2C")), (2, reveal("AH")))
    assert refused(state, 1, reveal("QD")).code == "no_reveal_now"


def test_reveal_shows_card_makes_the_card_public() -> None:
    state = heartbeat(("reveal", "double", "double"), {"reveal_shows": "card"})
    state, events = act(state, 0, reveal("BJ"))
    assert events == [CardShown(round=1, seat=0, rank="joker", card="BJ")]
    for seat in (None, 1, 2):
        assert b'"BJ"' in shown_json(state, seat, events)


def test_reveal_shows_rank_seals_the_card_for_its_owner() -> None:
    state = heartbeat(("reveal", "double", "double"), {"reveal_shows": "rank"})
    state, events = act(state, 0, reveal("KS"))
    shown = events[0]
    assert isinstance(shown, CardShown)
    assert (shown.rank, shown.card) == ("K", None)
    assert shown.sealed is not None and (shown.sealed.owner, shown.sealed.value) == (0, "KS")
    for seat in (None, 1, 2):
        public = state.rules.public_table(state.table, Perspective(seat=seat)).shown
        assert [(s.rank, s.card) for s in public] == [("K", None)]
        assert b'"KS"' not in shown_json(state, seat, events)
    own = state.rules.public_table(state.table, Perspective(seat=0)).shown
    assert [(s.rank, s.card) for s in own] == [("K", "KS")]
    # Even with the suit hidden, the revealed card may not be chosen this round.
    state, _ = moves(state, (1, reveal("2C")), (2, reveal("AH")))
    assert refused(state, 0, choose("KS")).code == "revealed_card_not_playable"


def test_a_rank_only_joker_reveal_does_not_say_which_joker() -> None:
    """Judgement call heartbeat/rank-only-joker."""
    state = heartbeat(("reveal", "double", "double"), {"reveal_shows": "rank"})
    _, events = act(state, 0, reveal("BJ"))
    assert events[0].rank == "joker"
    assert b"BJ" not in msgspec.json.encode(redact(events[0], PUBLIC))


# --- Pressure and the deadline ---------------------------------------------------------------


@pytest.mark.parametrize("seconds", [5, 10])
def test_pressure_records_a_deadline_after_the_flip(seconds: int) -> None:
    rules = Heartbeat()
    options = msgspec.convert({"pressure_seconds": seconds}, rules.options_type)
    for index in range(200):  # find a game whose first tempo card is Pressure
        rng = RandomStream(SEED, f"g{index}", ["", ""])
        events = rules.start(rules.setup(options, 2), Turn(NOW, rng, 1))
        flip = events[-1]
        assert isinstance(flip, TempoCardFlipped)
        if flip.tempo == "pressure":
            break
    assert flip.deadline == NOW + timedelta(seconds=seconds)
    state = heartbeat(
        ("pressure", "double", "double"), {"pressure_seconds": seconds}, seconds=seconds
    )
    assert state.rules.deadline(state.table) == NOW + timedelta(seconds=seconds)
    assert view(state, version=1, chain_head="h", perspective=PUBLIC).deadline == flip.deadline


def test_no_deadline_outside_a_pressure_round() -> None:
    state = heartbeat(("double", "pressure", "pressure"))
    assert state.rules.deadline(state.table) is None
    assert game.expire(state, now=NOW + timedelta(days=1), version=9) == []


DEADLINE = NOW + timedelta(seconds=5)


def test_a_choice_just_before_the_deadline_is_taken() -> None:
    state = heartbeat(("pressure", "double", "double"))
    _, events = act(state, 0, choose("KS"), now=DEADLINE - timedelta(microseconds=1))
    assert events == [CardChosen(round=1, seat=0, card=events[0].card)]


@pytest.mark.parametrize(
    "at", [DEADLINE, DEADLINE + timedelta(seconds=1)], ids=["exactly-at", "after"]
)
def test_a_choice_at_or_after_the_deadline_is_decided_after_the_timeout(at: datetime) -> None:
    """Judgement call heartbeat/late-command-after-expiry (RULES.md Timers, resolved): the
    timeout comes first in the same batch, then the choice counts for the next round. Judgement
    calls heartbeat/late-choice-counts-next-round, common/late-command-after-expiry."""
    state = heartbeat(("pressure", "double", "double"))
    expired = game.expire(state, now=at, version=100)
    after = game_state.fold(state, expired)
    card = after.table.hands[0][0]  # a card the timeout left in seat 0's hand
    _, events = act(state, 0, choose(card), now=at)
    assert events[: len(expired)] == expired
    assert isinstance(events[0], ChoiceTimedOut) and events[0].seats == (0, 1, 2)
    (chosen,) = events[len(expired) :]
    assert isinstance(chosen, CardChosen)
    assert (chosen.round, chosen.seat, chosen.card.value) == (2, 0, card)


def test_expiry_is_not_due_before_the_deadline() -> None:
    state = heartbeat(("pressure", "double", "double"))
    assert game.expire(state, now=DEADLINE - timedelta(microseconds=1), version=9) == []


def test_expiry_picks_a_random_playable_card_for_each_seat_that_has_not_chosen() -> None:
    state, _ = act(heartbeat(("pressure", "double", "reverse")), 1, choose("QD"))
    events = game.expire(state, now=DEADLINE, version=9)
    timed_out = events[0]
    assert isinstance(timed_out, ChoiceTimedOut)
    assert timed_out.seats == (0, 2)
    picks = [secret.unwrap() for secret in timed_out.cards]
    assert [secret.owner for secret in timed_out.cards] == [0, 2]
    assert picks[0] in HANDS[0] and picks[1] in HANDS[2]
    assert [type(e) for e in events[1:]] == [ChoicesRevealed, RoundScored, TempoCardFlipped]
    revealed = events[1]
    assert revealed.plays == (Play(0, picks[0]), Play(1, "QD"), Play(2, picks[1]))
    # Only one timeout event, and the picks are as secret as choices until the reveal.
    assert sum(isinstance(e, ChoiceTimedOut) for e in events) == 1
    assert all(s.value is None for s in redact(timed_out, Perspective(seat=1)).cards)
    after = game_state.fold(state, events)
    assert after.rules.to_act(after.table) == (0, 1, 2)
    assert events[-1] == TempoCardFlipped(round=2, tempo="double", deadline=None)


def test_the_timeout_pick_does_not_depend_on_when_expiry_runs_or_on_others() -> None:
    """Judgement call heartbeat/timeout-pick-label."""
    state = heartbeat(("pressure", "double", "double"))
    at_once = game.expire(state, now=DEADLINE, version=9)
    much_later = game.expire(state, now=DEADLINE + timedelta(hours=3), version=9)
    assert at_once[:3] == much_later[:3]
    # Seat 2's pick is the same whether or not seat 1 had chosen before the deadline.
    chose, _ = act(state, 1, choose("2C"))
    other = game.expire(chose, now=DEADLINE, version=9)[0]
    assert other.cards[-1].unwrap() == at_once[0].cards[-1].unwrap()


def test_the_timeout_pick_is_uniform_over_the_playable_cards() -> None:
    counts: Counter[str] = Counter()
    events = started("heartbeat", HANDS, {"tempo_deck": 12})
    deck = TempoDeckShuffled(size=3, cards=Secret(owner=None, value=("pressure",) * 3))
    for index in range(600):
        state = given([*events, deck, flipped(1, "pressure")])
        state = msgspec.structs.replace(state, game_id=f"game-{index}")
        counts[game.expire(state, now=DEADLINE, version=9)[0].cards[0].unwrap()] += 1
    assert set(counts) == set(HANDS[0])
    assert min(counts.values()) > 80  # 120 expected per card


def test_a_pressure_round_in_a_later_round_gets_its_own_deadline() -> None:
    state = heartbeat(("double", "pressure", "pressure"))
    later = NOW + timedelta(minutes=1)
    state, _ = moves(state, (0, choose("KS")), (1, choose("QD")))
    state, events = act(state, 2, choose("JH"), now=later)
    assert events[-1] == TempoCardFlipped(
        round=2, tempo="pressure", deadline=later + timedelta(seconds=5)
    )
    assert state.rules.deadline(state.table) == later + timedelta(seconds=5)


# --- leaving ---------------------------------------------------------------------------------


def test_a_seat_that_left_is_not_awaited_and_its_choice_is_void() -> None:
    """Judgement call heartbeat/leaver-choice-void."""
    state, _ = moves(heartbeat(), (1, choose("QD")), (0, choose("4C")))
    state, events = act(state, 1, Leave())
    assert events == [PlayerLeft(seat=1)]  # seat 2 is still awaited
    assert state.rules.to_act(state.table) == (2,)
    state, events = act(state, 2, choose("5D"))
    assert events[-2:] == [
        ChoicesRevealed(round=1, plays=(Play(0, "4C"), Play(2, "5D"))),
        RoundScored(round=1, tempo=None, winners=(2,), chips=(0, 0, 1)),
    ]
    assert state.rules.to_act(state.table) == (0, 2)
    assert refused(state, 1, choose("7D")).code == "player_left"


def test_leaving_as_the_last_awaited_seat_closes_the_round() -> None:
    state, _ = moves(heartbeat(), (0, choose("KS")), (1, choose("QD")))
    _, events = act(state, 2, Leave())
    assert [type(e) for e in events] == [PlayerLeft, ChoicesRevealed, RoundScored]
    assert scored(events).winners == (0, 1)


def test_leaving_during_the_reveal_lets_choosing_begin() -> None:
    state = heartbeat(("reveal", "double", "double"))
    state, _ = moves(state, (0, reveal("KS")), (1, reveal("2C")), (2, Leave()))
    assert state.rules.public_table(state.table, PUBLIC).phase == "choose"
    assert state.rules.to_act(state.table) == (0, 1)


def test_when_one_seat_is_left_it_wins_by_forfeit_with_the_chips_so_far() -> None:
    """RULES.md Leaving (issue 13, item 5): the one seat left wins even with fewer chips; no
    round is scored for it alone. Judgement call common/forfeit-ends-at-once."""
    state, _ = moves(heartbeat(), (0, choose("KS")), (1, choose("QD")), (2, choose("5D")))
    state, events = moves(state, (2, choose("6C")), (0, Leave()), (1, Leave()))
    assert events[-2:] == [
        PlayerLeft(seat=1),
        GameFinished(scores=(1, 1, 0), winners=(2,), seed=SEED.hex(), reason="forfeit"),
    ]


# --- the whole game --------------------------------------------------------------------------


def test_three_rounds_finish_the_game_with_shared_wins() -> None:
    state = heartbeat(("double", "reverse", "pressure", "reveal"))
    state, _ = moves(state, (0, choose("KS")), (1, choose("10C")), (2, choose("8S")))  # 2, 2, 0
    assert state.rules.public_table(state.table, PUBLIC).tempo == "reverse"
    state, _ = moves(state, (0, choose("9H")), (1, choose("7D")), (2, choose("AH")))  # 0, 0, 1
    assert state.rules.public_table(state.table, PUBLIC).tempo == "pressure"
    state, events = moves(state, (0, choose("4C")), (1, choose("QD")), (2, choose("JH")))
    assert events[-1] == GameFinished(scores=(2, 3, 2), winners=(1,), seed=SEED.hex())
    assert state.status == "finished"
    assert not any(isinstance(e, TempoCardFlipped) for e in events)
    assert [(row.label, row.points) for row in state.rules.score_rows(state.table)] == [
        ("round 1", (2, 2, 0)),
        ("round 2", (0, 0, 1)),
        ("round 3", (0, 1, 1)),
    ]
    assert state.rules.to_act(state.table) == ()
    assert state.rules.deadline(state.table) is None
    assert state.rules.public_table(state.table, PUBLIC).phase == "over"


def test_equal_chips_share_the_win() -> None:
    state = heartbeat()
    state, _ = moves(state, (0, choose("KS")), (1, choose("7D")), (2, choose("8S")))
    state, _ = moves(state, (0, choose("4C")), (1, choose("QD")), (2, choose("6C")))
    state, events = moves(state, (0, choose("AS")), (1, choose("3H")), (2, choose("JH")))
    assert events[-1] == GameFinished(scores=(1, 1, 1), winners=(0, 1, 2), seed=SEED.hex())
    assert state.outcome is not None and state.outcome.winners == (0, 1, 2)


# --- the deal and the options ----------------------------------------------------------------


def start(options: dict, seats: int = 3, game_id: str = "g") -> list[Event]:
    rules = Heartbeat()
    table = rules.setup(msgspec.convert(options, rules.options_type), seats)
    return rules.start(table, Turn(NOW, RandomStream(SEED, game_id, [""] * seats), 1))


@pytest.mark.parametrize(("jokers", "size"), [("zero", 54), ("removed", 52)])
def test_the_deal_uses_the_deck_the_jokers_option_gives(jokers: str, size: int) -> None:
    dealt = start({"jokers": jokers}, seats=6)[0]
    assert isinstance(dealt, HandDealt)
    hands = [secret.unwrap() for secret in dealt.hands]
    assert [len(hand) for hand in hands] == [5] * 6
    cards = [card for hand in hands for card in hand] + list(dealt.rest.unwrap())
    assert len(cards) == size
    assert Counter(cards) == Counter(standard_deck(jokers=jokers == "zero"))
    assert [secret.owner for secret in dealt.hands] == list(range(6))
    assert dealt.rest.owner is None


@pytest.mark.parametrize(("size", "each"), [(12, 3), (8, 2)])
def test_the_tempo_deck_is_shuffled_face_down_and_its_top_card_flipped(
    size: int, each: int
) -> None:
    """Judgement call heartbeat/tempo-deck-secret."""
    _, deck, flip = start({"tempo_deck": size})
    assert isinstance(deck, TempoDeckShuffled) and isinstance(flip, TempoCardFlipped)
    cards = deck.cards.unwrap()
    assert Counter(cards) == dict.fromkeys(("pressure", "reveal", "reverse", "double"), each)
    assert (deck.size, deck.cards.owner) == (size, None)
    assert flip.round == 1 and flip.tempo == cards[0]
    assert redact(deck, Perspective(seat=0)).cards.value is None
    orders = {start({"tempo_deck": size}, game_id=f"g{i}")[1].cards.unwrap() for i in range(8)}
    assert len(orders) > 1, "the tempo deck is shuffled"


def test_tempo_deck_0_means_no_tempo_cards() -> None:
    events = start({"tempo_deck": 0})
    assert [type(e) for e in events] == [HandDealt]
    state = heartbeat()
    table = state.rules.public_table(state.table, PUBLIC)
    assert (table.tempo, table.tempo_cards_left) == (None, 0)


def test_the_flipped_tempo_card_is_in_every_view() -> None:
    state = heartbeat(("reverse", "double", "pressure"))
    for seat in (None, 0, 1, 2):
        current = view(state, version=1, chain_head="h", perspective=Perspective(seat=seat))
        assert current.table.tempo == "reverse"
        assert current.table.tempo_cards_left == 2


def test_options_default_to_the_first_listed_value() -> None:
    assert game.parse_options(Heartbeat(), None) == {
        "jokers": "zero",
        "tempo_deck": 12,
        "reveal_shows": "card",
        "pressure_seconds": 5,
        "double_rule": "winner_only",
    }


@pytest.mark.parametrize(
    ("seats", "options", "code"),
    [
        (1, None, "invalid_seat_count"),
        (7, None, "invalid_seat_count"),
        (3, {"tiebreak": "shared"}, "unknown_option"),
        (3, {"jokers": "one"}, "invalid_option"),
        (3, {"tempo_deck": 10}, "invalid_option"),
        (3, {"tempo_deck": "12"}, "invalid_option"),
        (3, {"reveal_shows": "suit"}, "invalid_option"),
        (3, {"pressure_seconds": 7}, "invalid_option"),
        (3, {"double_rule": "everyone"}, "invalid_option"),
    ],
)
def test_creation_is_validated(seats: int, options: dict | None, code: str) -> None:
    refused = refused_creation("heartbeat", seats, options)
    assert (refused.code, refused.failure) == (code, Failure.INVALID)


def test_a_seat_that_left_keeps_its_chips_but_never_wins() -> None:
    """Judgement call heartbeat/leaver-keeps-chips: seat 0 wins round 1 and leaves; it ties
    for the most chips at the end but only the seats still at the table win."""
    state, _ = moves(heartbeat(), (0, choose("KS")), (1, choose("7D")), (2, choose("8S")))
    state, _ = moves(state, (0, Leave()), (1, choose("QD")), (2, choose("5D")))
    state, events = moves(state, (1, choose("3H")), (2, choose("6C")))
    assert events[-1] == GameFinished(scores=(1, 1, 1), winners=(1, 2), seed=SEED.hex())


def test_the_double_consolation_goes_to_players_of_the_round_only() -> None:
    """Judgement call heartbeat/consolation-for-players-only."""
    state = heartbeat(("double", "reverse", "reverse"), {"double_rule": "others_one"})
    state, events = moves(state, (2, Leave()), (0, choose("KS")), (1, choose("7D")))
    assert scored(events).chips == (2, 1, 0)
