"""Who sits where: the seats taken when a game is created (the creator's and the bots asked
for), a bot's seat, and the checks on a seat asked for by number."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from domain.errors import Failure, RuleViolation, invalid
from domain.events import BotSeat, Event, GameCreated, SeatTaken

REFUSALS: Mapping[str, Failure] = {
    "invalid_seat": Failure.INVALID,
    "seat_taken": Failure.CONFLICT,
    "too_many_bots": Failure.INVALID,
}


class SeatedBot(msgspec.Struct, frozen=True, kw_only=True):
    """A bot asked for at creation: at ``seat``, or (None) at the lowest seat left free."""

    bot: BotSeat
    seat: int | None = None


def bot_taken(seat: int, bot: BotSeat) -> SeatTaken:
    """A bot's seat. Its player id names the seat (no player's id has a colon), so the bot acts
    through the same rules as a player; it has no client seed (its seed is the server's)."""
    return SeatTaken(
        seat=seat, player_id=f"bot:{seat}", name=f"Bot {seat}", client_seed="", bot=bot
    )


def check_free(seat: int, seat_count: int, *, taken: bool) -> None:
    """Refuse a seat out of range, or ``taken``."""
    if not 0 <= seat < seat_count:
        raise invalid("invalid_seat", f"this game has seats 0 to {seat_count - 1}")
    if taken:
        raise RuleViolation("seat_taken", f"seat {seat} is taken")


def seats_at_creation(
    seat_count: int, creator: SeatTaken, bots: Sequence[SeatedBot]
) -> list[SeatTaken]:
    """The seats taken at creation, in seat order: first the bots placed at a seat, then the
    creator at seat 0 (unless a bot sits there: then the creator does not sit), then the other
    bots at the lowest free seats."""
    seats: dict[int, SeatTaken] = {}
    for request in bots:
        if request.seat is not None:
            check_free(request.seat, seat_count, taken=request.seat in seats)
            seats[request.seat] = bot_taken(request.seat, request.bot)
    if 0 not in seats:
        seats[0] = creator
    for request in bots:
        if request.seat is None:
            free = [seat for seat in range(seat_count) if seat not in seats]
            if not free:
                raise invalid("too_many_bots", f"this game has {seat_count} seats in all")
            seats[free[0]] = bot_taken(free[0], request.bot)
    return [seats[seat] for seat in sorted(seats)]


def creation_actor(events: Sequence[Event]) -> str:
    """Who creates the game, as the log names it: seat 0, or ``creator`` when a bot sits there."""
    creator = next(e.creator for e in events if isinstance(e, GameCreated))
    seated = any(isinstance(e, SeatTaken) and e.player_id == creator for e in events)
    return "seat:0" if seated else "creator"
