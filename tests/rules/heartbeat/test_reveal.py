"""Heartbeat (RULES.md §1): the Reveal tempo card, as scenarios."""

from __future__ import annotations

import msgspec

from domain.perspective import PUBLIC, Perspective, redact
from domain.variants.heartbeat.messages import CardShown, RoundScored
from tests.rules.heartbeat.scenarios import (
    act,
    choose,
    heartbeat,
    moves,
    refused,
    reveal,
    scored,
    shown_json,
)


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
