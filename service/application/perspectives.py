"""Which perspective a caller gets: for views and event pages, and for replays."""

from __future__ import annotations

from domain.game_state import GameState
from domain.perspective import FULL, Perspective
from service.auth import Principal
from service.errors import INVALID_PERSPECTIVE, PERSPECTIVE_FORBIDDEN
from service.numbers import whole_number


def viewer_perspective(state: GameState, principal: Principal | None) -> Perspective:
    """A seat sees its own secrets; the operator (and anyone once the game is over) sees all."""
    seat = state.seat_of(principal.player_id) if principal and principal.player_id else None
    if state.over or (principal is not None and principal.admin):
        return Perspective(seat=seat, full=True) if seat is not None else FULL
    return Perspective(seat=seat)


def replay_perspective(
    state: GameState, principal: Principal | None, requested: str
) -> Perspective:
    """public always; seat:N for that seat's player; full for the operator; all once over."""
    if requested == "public":
        return Perspective()
    own_seat = state.seat_of(principal.player_id) if principal and principal.player_id else None
    privileged = state.over or (principal is not None and principal.admin)
    if requested == "full":
        if privileged:
            return FULL
        raise PERSPECTIVE_FORBIDDEN("the full perspective opens at the end")
    seat = whole_number(requested.removeprefix("seat:")) if requested.startswith("seat:") else None
    if seat is None:
        raise INVALID_PERSPECTIVE("perspective is public, seat:N or full")
    if seat >= state.seat_count:
        last = state.seat_count - 1
        raise INVALID_PERSPECTIVE(f"this game has seats 0 to {last}")
    if not (privileged or own_seat == seat):
        raise PERSPECTIVE_FORBIDDEN("only that seat's player sees it before the end")
    return Perspective(seat=seat)
