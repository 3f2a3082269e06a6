"""A bot in a seat of a hosted game: what it sends, from its seat's view and its own seed.

The one decision every process's driver makes for a bot seat and the audit re-runs once the game
is over: a pure function of the view (exactly what ``GET /games/{id}/view`` returns for the seat
at that version and moment), the bot's level and algorithm version, and its seed.
"""

from __future__ import annotations

from bots.contract import bot_draw
from bots.levels import player
from domain.commands import Command, VoteCancel
from domain.events import BotSeat
from projections.views import SeatView, View


def bot_command(view: View, bot: BotSeat, seed: bytes) -> Command | None:
    """What the bot at ``view.seat`` sends now, or None while nothing is awaited of it.

    A bot plays whenever its seat is awaited (``to_act``: turns, simultaneous choices,
    challenge windows, passes...). It never leaves, and it votes to cancel once every player
    still at the table has: so people can end a game against bots."""
    seat = _own(view)
    if view.status != "active" or seat is None or seat.left:
        return None
    if not seat.voted_cancel and players_want_out(view):
        return VoteCancel()
    if seat.seat not in view.to_act:
        return None
    draw = bot_draw(seed, view.game_id, seat.seat, view.version)
    return player(view.variant, bot.level, bot.algorithm).choose(view, draw)


def players_want_out(view: View) -> bool:
    """Every player (not bot) still at the table has voted to cancel, and one still is."""
    players = [seat for seat in view.seats if seat.bot is None and not seat.left]
    return bool(players) and all(seat.voted_cancel for seat in players)


def _own(view: View) -> SeatView | None:
    return next((seat for seat in view.seats if seat.seat == view.seat), None)
