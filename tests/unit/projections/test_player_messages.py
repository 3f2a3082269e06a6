"""Messages derived from a game's runs of events: who hears what, and who hears nothing."""

from __future__ import annotations

import msgspec

from domain import game_state
from domain.commands import PlayCard
from domain.events import BotSeat, Event, GameCancelled, GameFinished, SeatTaken
from domain.game_state import GameState
from domain.matchmaking.rematch import RematchOffered
from domain.variants.heartbeat.messages import ChooseCard
from projections.player_messages import (
    PlayerMessage,
    Run,
    messages_of,
    offer_messages,
    parse_message_id,
)
from tests.rules.scenario import NOW, created, given, player, started, when

OPEN_HANDS = [("AS", "KS", "QS"), ("AH", "KH", "QH"), ("AD", "KD", "QD")]
HEART_HANDS = [
    ("KS", "9H", "4C", "AS", "BJ"),
    ("QD", "JC", "7S", "2H", "8D"),
    ("JH", "8S", "5D", "AH", "6C"),
]


def run(before: GameState | None, events: list[Event], *actors: str, at: int = 40) -> Run:
    after = game_state.fold(before, events) if before else given(events)
    return Run(position=at, before=before, after=after, version=9, at=NOW, actors=frozenset(actors))


def heard(found: list[tuple[str, PlayerMessage]]) -> list[tuple[str, str, tuple[int, ...]]]:
    return [(who, message.kind, message.seats) for who, message in found]


def test_the_start_tells_everyone_and_the_first_to_act_it_is_their_turn() -> None:
    waiting = given(created("open-hand", 3))
    begun = started("open-hand", OPEN_HANDS)[4:]  # GameStarted, HandDealt
    opened = run(waiting, begun, "seat:2")
    found = messages_of(opened)
    (first,) = opened.after.rules.to_act(opened.after.table)
    assert heard(found) == [
        *[(player(seat), "game_started", (seat,)) for seat in range(3)],
        (player(first), "your_turn", (first,)),
    ]
    assert [m.id for _, m in found][:1] == ["40-game_started"]
    assert all(m.status == "active" and m.version == 9 for _, m in found)


def test_a_move_tells_only_the_next_seat() -> None:
    state = given(started("open-hand", OPEN_HANDS))
    seat = state.rules.to_act(state.table)[0]
    card = state.rules.hand(state.table, seat)[0]
    found = messages_of(run(state, when(state, seat, PlayCard(card=card)), f"seat:{seat}"))
    after = game_state.fold(state, when(state, seat, PlayCard(card=card)))
    (awaited,) = after.rules.to_act(after.table)
    assert heard(found) == [(player(awaited), "your_turn", (awaited,))]
    assert found[0][1].id == "40-your_turn"


def heartbeat() -> GameState:
    return given(started("heartbeat", HEART_HANDS, {"tempo_deck": 0}))


def test_simultaneous_turns_each_seat_once_and_no_repeat_while_others_choose() -> None:
    state = heartbeat()
    assert state.rules.to_act(state.table) == (0, 1, 2)
    chosen = when(state, 0, ChooseCard(card="KS"))
    assert messages_of(run(state, chosen, "seat:0")) == []  # 1 and 2 were awaited already


def test_a_timeout_by_the_server_tells_the_seats_still_awaited_again() -> None:
    state = heartbeat()
    chosen = when(state, 0, ChooseCard(card="KS"))
    found = messages_of(run(state, chosen, "server"))
    assert heard(found) == [(player(1), "your_turn", (1,)), (player(2), "your_turn", (2,))]


def test_a_player_at_several_awaited_seats_gets_one_message_for_the_game() -> None:
    events = started("heartbeat", HEART_HANDS, {"tempo_deck": 0})
    events = [
        msgspec.structs.replace(e, player_id=player(0))
        if isinstance(e, SeatTaken) and e.seat == 2
        else e
        for e in events
    ]
    waiting = given(events[:4])
    found = messages_of(run(waiting, events[4:], "seat:2"))
    turns = [(who, seats) for who, kind, seats in heard(found) if kind == "your_turn"]
    assert turns == [(player(0), (0, 2)), (player(1), (1,))]


def test_bots_seats_hear_nothing() -> None:
    bot = BotSeat(level=1, algorithm=1)
    events = started("heartbeat", HEART_HANDS, {"tempo_deck": 0})
    events = [
        msgspec.structs.replace(e, player_id="bot-1", bot=bot)
        if isinstance(e, SeatTaken) and e.seat in (1, 2)
        else e
        for e in events
    ]
    found = messages_of(run(given(events[:4]), events[4:], "seat:0"))
    assert {who for who, _ in found} == {player(0)}


def test_a_cancelled_game_tells_everyone_it_is_over_and_awaits_nobody() -> None:
    state = heartbeat()
    found = messages_of(run(state, [GameCancelled(by="admin", seed="00")], "admin"))
    assert heard(found) == [(player(seat), "game_over", (seat,)) for seat in range(3)]
    assert {m.status for _, m in found} == {"cancelled"}


def test_a_finished_game_tells_everyone_once() -> None:
    state = heartbeat()
    ended = GameFinished(scores=(1, 0, 0), winners=(0,), seed="00")
    over = run(state, [ended], "server")
    assert heard(messages_of(over)) == [(player(s), "game_over", (s,)) for s in range(3)]
    assert messages_of(run(over.after, [], "server")) == []  # over already: nothing again


def test_message_ids_parse_back_and_refuse_what_is_not_one() -> None:
    assert parse_message_id("12-your_turn") == (12, "your_turn")
    assert parse_message_id(" 7-game_over") == (7, "game_over")
    for bad in (
        "",
        "12",
        "-your_turn",
        "x-your_turn",
        "12-",
        "12-your turn",
        "1.5-a",
        "9" * 19 + "-your_turn",
    ):
        assert parse_message_id(bad) is None


def test_a_table_a_queue_formed_tells_everyone_seated_they_were_matched() -> None:
    events = started("open-hand", OPEN_HANDS)
    events[0] = msgspec.structs.replace(events[0], matched_by="queue-stream")
    waiting = given(events[:4])  # created and every seat taken
    found = messages_of(run(waiting, events[4:], "seat:2"))
    matched = [(who, seats) for who, kind, seats in heard(found) if kind == "matched"]
    assert matched == [(player(seat), (seat,)) for seat in range(3)]
    assert {m.id for _, m in found if m.kind == "matched"} == {"40-matched"}
    plain = messages_of(run(given(started("open-hand", OPEN_HANDS)[:4]), events[4:], "seat:2"))
    assert "matched" not in {m.kind for _, m in plain}  # a table players made themselves


def test_a_rematch_offer_tells_every_other_person_seated_and_a_rematch_says_of_what() -> None:
    ended = given(started("open-hand", OPEN_HANDS))
    offer = RematchOffered(game_id=ended.game_id, player_id=player(1), name="Ben")
    found = offer_messages(77, NOW, offer, ended, 12)
    assert heard(found) == [
        (player(0), "rematch_offered", (0,)),
        (player(2), "rematch_offered", (2,)),
    ]
    assert all(m.id == "77-rematch_offered" and m.offered_by == "Ben" for _, m in found)
    events = started("open-hand", OPEN_HANDS)
    events[0] = msgspec.structs.replace(events[0], rematch_of="old-game")
    begun = messages_of(run(given(events[:4]), events[4:], "seat:2"))
    assert {m.rematch_of for _, m in begun} == {"old-game"}
