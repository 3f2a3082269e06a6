"""Turn order and tricks: the mechanics several variants share."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import msgspec

from domain.errors import Failure, RuleViolation

REFUSALS: Mapping[str, Failure] = {  # check_play
    "not_your_turn": Failure.CONFLICT,
    "card_not_in_hand": Failure.CONFLICT,
}


def left_of(seat: int, seat_count: int) -> int:
    return (seat + 1) % seat_count


def right_of(seat: int, seat_count: int) -> int:
    return (seat - 1) % seat_count


def rotation(start: int, seat_count: int) -> list[int]:
    """Seats in turn order beginning with ``start``."""
    return [(start + step) % seat_count for step in range(seat_count)]


def first_eligible(start: int, seat_count: int, eligible: Callable[[int], bool]) -> int | None:
    """The first seat from ``start`` on (``start`` included) that may act, if any."""
    for step in range(seat_count):  # ``rotation``'s order, walked without building it
        seat = (start + step) % seat_count
        if eligible(seat):
            return seat
    return None


class Play(msgspec.Struct, frozen=True):
    seat: int
    card: str


class TrickRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A finished trick as every player saw it."""

    number: int
    leader: int
    plays: tuple[Play, ...]
    winner: int | None


def next_in_trick(
    leader: int, plays: Sequence[Play], seat_count: int, eligible: Callable[[int], bool]
) -> int | None:
    """Whose card the trick waits for: the first eligible seat from the leader that has not played.

    None once every eligible seat has played (the trick is complete).
    """
    played = {play.seat for play in plays}
    return first_eligible(leader, seat_count, lambda seat: seat not in played and eligible(seat))


def check_play(awaited: int | None, seat: int, hand: Sequence[str], card: str) -> None:
    """Refuse a card that is not the seat's to play now: the game awaits another seat, or the
    card is not in its hand."""
    if awaited != seat:
        raise RuleViolation("not_your_turn", "it is not your turn to play")
    if card not in hand:
        raise RuleViolation("card_not_in_hand", f"{card} is not in your hand")
