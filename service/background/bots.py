"""Plays the bot seats of every game, in the background of every API process.

The driver learns from the log which games seat a bot (their SeatTaken events) and which of
them changed, as the follower reads it (whichever process wrote it), starting from the games
the read models list as seating one. A changed game is loaded once per visit, not per event.
For each bot seat awaited, it builds the seat's view exactly as ``GET /games/{id}/view`` would at
that version and moment, asks the bot (``bots.seated.bot_command``) and sends its command through
the application's command path, on that version only: when several processes drive the same
game, each decides the same command and the store's version check lets exactly one write it;
the others find the game moved and look again. A process that dies mid-turn leaves the turn to
the others, which act on the next change they read or, after a restart, on the listed games.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime
from uuid import UUID

from eventsourcing.persistence import Notification

from bots.seated import bot_command
from domain.aggregate import GameAggregate, Recorded
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import GameCancelled, GameFinished, SeatTaken, topic
from domain.fairness import bot_seed
from domain.game_state import GameState
from domain.perspective import Perspective
from projections.views import as_of, view
from service.errors import ApiError
from service.store.games import Games
from service.store.unit_of_work import Outcome
from service.worker import Worker

log = logging.getLogger("cardledger.bots")
MOVES_PER_VISIT = 32  # then the other changed games get their turn
RETRY_SECONDS = 1.0  # after a visit that failed (the store was away)
POLL_SECONDS = 5.0  # a wake-up is never needed, but a failed visit is retried
SEATS = topic(SeatTaken)

Play = Callable[..., Outcome]  # GameCommands.play_bot
Move = tuple[int, Command]


class BotDriver:
    def __init__(self, games: Games, play: Play, clock: Callable[[], datetime]) -> None:
        self._games = games
        self._play = play
        self._clock = clock
        self._seating_bots: set[UUID] = set()  # games not over with a bot seat (follower thread)
        self._changed: dict[UUID, None] = {}  # in the order they changed
        self._lock = threading.Lock()
        self.worker = Worker("bot-driver", self.step, idle=POLL_SECONDS)

    def start(self) -> None:
        self.worker.start()

    def stop(self) -> None:
        self.worker.stop()

    def known(self, games: set[UUID]) -> None:
        """Games seating a bot when the follower starts (from the read models): any of them may
        await a bot whose process died mid-turn."""
        self._seating_bots |= games
        self._mark(games)

    def wants(self, notification: Notification) -> bool:
        return notification.topic == SEATS or notification.originator_id in self._seating_bots

    def observe(self, recorded: list[Recorded]) -> None:
        """A batch of events from the log: note the games that seat a bot and those changed."""
        changed: list[UUID] = []
        for event in recorded:
            game_id = event.originator_id
            payload = event.payload
            if isinstance(payload, SeatTaken) and payload.bot is not None:
                self._seating_bots.add(game_id)
            if game_id not in self._seating_bots:
                continue
            if isinstance(payload, GameFinished | GameCancelled):
                self._seating_bots.discard(game_id)
            changed.append(game_id)
        self._mark(changed)

    def step(self) -> float | None:
        """Visit every changed game; returns 0 while some still await a bot after a visit."""
        with self._lock:
            due = list(self._changed)
            self._changed.clear()
        again: list[UUID] = []
        failed = False
        for game_id in due:
            if self.worker.stopping:
                again.append(game_id)
                continue
            try:
                if self.visit(game_id) == MOVES_PER_VISIT:
                    again.append(game_id)
            except Exception:
                log.exception("could not play the bots of game %s; trying again", game_id)
                again.append(game_id)
                failed = True
        self._mark(again, wake=False)
        if failed:
            return RETRY_SECONDS
        return 0.0 if again else None

    def visit(self, game_id: UUID) -> int:
        """Play the game's awaited bots, one move at a time; returns how many moves were sent
        (at most MOVES_PER_VISIT)."""
        for moves in range(MOVES_PER_VISIT):
            game = self._games.fresh(game_id)
            now = self._clock()
            move = next_move(game, now)
            if move is None:
                return moves
            seat, command = move
            try:
                self._play(game_id, seat, command, version=game.version, now=now)
            except ApiError as error:  # the game moved on (another process), or was busy
                log.debug("bot at seat %s of %s: %s", seat, game_id, error.detail)
            except RuleViolation as refusal:
                log.error(
                    "the bot at seat %s of game %s sent %r at version %s, refused: %s",
                    seat,
                    game_id,
                    command,
                    game.version,
                    refusal.message,
                )
                return moves
        return MOVES_PER_VISIT

    def _mark(self, games: list[UUID] | set[UUID], *, wake: bool = True) -> None:
        if not games:
            return
        with self._lock:
            for game_id in games:
                self._changed[game_id] = None
        if wake:
            self.worker.wake()


def next_move(game: GameAggregate, now: datetime) -> Move | None:
    """The first bot seat awaited at ``now`` and what it sends, from its own view."""
    state = game.state
    if state.status != "active" or state.seed is None:
        return None
    seed = bytes.fromhex(state.seed)
    for seat in candidates(as_of(state, version=game.version, now=now)):
        bot = state.seat(seat).bot
        assert bot is not None
        seen = view(
            state,
            version=game.version,
            chain_head=game.chain_head,
            perspective=Perspective(seat=seat),
            now=now,
        )
        command = bot_command(seen, bot, bot_seed(seed, state.game_id, seat))
        if command is not None:
            return seat, command
    return None


def candidates(state: GameState) -> list[int]:
    """The bot seats that may be awaited (the bot's own view decides): those whose input the
    table awaits, and all still seated once every player has voted to cancel."""
    if state.status != "active":
        return []
    seated = [(index, seat) for index, seat in state.taken if not seat.left]
    bots = [index for index, seat in seated if seat.bot is not None]
    players = [seat for _, seat in seated if seat.bot is None]
    if players and all(seat.voted_cancel for seat in players):
        return bots
    awaited = set(state.rules.to_act(state.table))
    return [seat for seat in bots if seat in awaited]
