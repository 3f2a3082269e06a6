"""Ratings by finishing rank: who took part in a finished game, in which place, and how one
game moves their ratings. The model is openskill's Plackett-Luce (a maintained library built
for ranking many players at once); docs/ratings.md gives its parameters and the order of
updates, so anyone can re-derive a rating from a player's export.

Bots of one level (and algorithm version) are one rated participant per variant. A program's
strength does not drift, so a bot's uncertainty does not grow between games (no τ): after many
games it barely moves, and its steady rating anchors the scale the players are measured on.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

import msgspec
from openskill.models import PlackettLuce

from domain.events import BotSeat
from domain.game_state import GameState, SeatInfo
from projections.scoreboard import placing, shared_ranks

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = MU / 300  # a player's uncertainty grows by this before each game (openskill's default)
# τ is applied here rather than by the library, so that bots can skip it: the library reads a
# τ of 0 as "use the default", hence a model whose own τ is 0.
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=0.0)
BOT_ID = re.compile(r"bot:level-(?P<level>[0-9]{1,3}):v(?P<algorithm>[0-9]{1,3})")


class Rating(msgspec.Struct, frozen=True, array_like=True):
    mu: float
    sigma: float


NEW = Rating(MU, SIGMA)


class Participant(msgspec.Struct, frozen=True, kw_only=True):
    """One seat of a rated game: who is rated for it, and its place (1 is first; equal places
    share a rank)."""

    rated_id: str
    name: str
    seat: int
    rank: int
    bot: bool


def rated_id(seat: SeatInfo) -> str:
    """A player's own id; for a bot, its level and algorithm version (every bot of a level is
    one program, whatever seat it sits at; a new algorithm is rated apart)."""
    if seat.bot is None:
        return seat.player_id
    return f"bot:level-{seat.bot.level}:v{seat.bot.algorithm}"


def rated_name(seat: SeatInfo) -> str:
    """A bot's seat is named after its seat; its rating is the level's."""
    return seat.name if seat.bot is None else bot_name(seat.bot.level)


def bot_name(level: int) -> str:
    return f"Bot level {level}"


def bot_of(rated: str) -> BotSeat | None:
    """The bot level and algorithm a rated id names (``rated_id``'s inverse), or None."""
    found = BOT_ID.fullmatch(rated)
    if found is None:
        return None
    return BotSeat(level=int(found["level"]), algorithm=int(found["algorithm"]))


def participants(state: GameState) -> list[Participant]:
    """A finished game's seats by finishing place: winners first, then by score, equal places
    share a rank; every seat that left counts last (together). A cancelled game is void: no
    one."""
    if state.status != "finished" or state.outcome is None:
        return []
    place = placing(state, state.outcome.scores)

    def key(seat: int) -> tuple[bool, bool, int]:
        return (True, True, 0) if state.seat(seat).left else (False, *place(seat))

    order = sorted(state.taken_seats, key=lambda seat: (key(seat), seat))
    return [
        Participant(
            rated_id=rated_id(state.seat(seat)),
            name=rated_name(state.seat(seat)),
            seat=seat,
            rank=rank,
            bot=state.seat(seat).bot is not None,
        )
        for seat, rank in zip(order, shared_ranks(order, key), strict=True)
    ]


class RatedSeat(msgspec.Struct, frozen=True, kw_only=True):
    """One seat of a rated game with its rating before and after the game."""

    rated_id: str
    name: str
    seat: int
    rank: int
    bot: bool
    before: Rating
    after: Rating


def rate_game(seats: Sequence[Participant], current: Mapping[str, Rating]) -> list[RatedSeat]:
    """One game's update: each seat starts from its rated id's current rating (``NEW`` if it
    has none). A bot level that holds several seats plays each from the same rating."""
    before = [current.get(seat.rated_id, NEW) for seat in seats]
    after = rate(before, [seat.rank for seat in seats], [seat.bot for seat in seats])
    return [
        RatedSeat(
            rated_id=seat.rated_id,
            name=seat.name,
            seat=seat.seat,
            rank=seat.rank,
            bot=seat.bot,
            before=old,
            after=new,
        )
        for seat, old, new in zip(seats, before, after, strict=True)
    ]


def ratings_after(seats: Sequence[RatedSeat]) -> dict[str, Rating]:
    """Each rated id's rating after the game: its seat's; for a bot level at several seats, the
    mean of its seats' (each seat is one showing of the same program)."""
    grouped: dict[str, list[Rating]] = {}
    for seat in seats:
        grouped.setdefault(seat.rated_id, []).append(seat.after)
    return {
        rated: Rating(
            math.fsum(r.mu for r in found) / len(found),
            math.fsum(r.sigma for r in found) / len(found),
        )
        for rated, found in grouped.items()
    }


def rate(before: Sequence[Rating], ranks: Sequence[int], bots: Sequence[bool]) -> list[Rating]:
    """Every participant's rating after one game, from their ratings before it and their ranks
    (``bots``: whose uncertainty does not grow first)."""
    teams = [
        [MODEL.rating(mu=rating.mu, sigma=rating.sigma if bot else _grown(rating.sigma))]
        for rating, bot in zip(before, bots, strict=True)
    ]
    after = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [Rating(team[0].mu, team[0].sigma) for team in after]


def _grown(sigma: float) -> float:
    return math.sqrt(sigma * sigma + TAU * TAU)
