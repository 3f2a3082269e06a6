"""One Up One Down (RULES.md §5): another seat's face-down card changes nothing an observer gets."""

from __future__ import annotations

import msgspec
import pytest

from domain import game_state
from domain.events import Event
from domain.perspective import PUBLIC, Perspective, redact
from domain.variants.one_up_one_down.messages import Challenge, Decline
from projections.views import view
from tests.rules.one_up_one_down.scenarios import down, table, up
from tests.rules.scenario import when


def _served(state, perspective, events: list[Event]) -> bytes:
    shown = view(state, version=0, chain_head="", perspective=perspective)
    return msgspec.json.encode([shown, [redact(e, perspective) for e in events]])


def _frames(perspective: Perspective, hidden: str, spare: str) -> list[bytes]:
    hands = [("8H", "9S", "AS"), (hidden, "KS", "JD"), ("5S", "QD", "AH")]
    state = table(hands, ("3C", "4C", spare))
    moves = [
        (0, up("8H")),
        (1, down(hidden, "10")),
        (2, Decline()),
        (0, Decline()),
        (2, up("QD")),
        (0, down("AS", "A")),
        (2, Decline()),
        (1, Challenge()),  # honest: the owner of the hidden card takes the pile back
    ]
    frames = []
    events: list[Event] = []
    for seat, command in moves:
        new = when(state, seat, command)
        state = game_state.fold(state, new)
        events += new
        frames.append(_served(state, perspective, events))
    return frames


@pytest.mark.parametrize("observer", [None, 0, 2])
def test_another_seats_face_down_card_does_not_change_what_an_observer_gets(observer) -> None:
    perspective = PUBLIC if observer is None else Perspective(seat=observer)
    assert _frames(perspective, "7H", "9C") == _frames(perspective, "9C", "7H")


def test_the_owner_of_the_face_down_card_does_see_it() -> None:
    owner = Perspective(seat=1)
    assert _frames(owner, "7H", "9C") != _frames(owner, "9C", "7H")
