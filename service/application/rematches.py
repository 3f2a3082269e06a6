"""Rematch: after a game has finished, its seated people offer, accept or decline a new game of
the same variant and options, every seat rotated by one, bots at their rotated seats.

Each answer is decided on the rematch as stored and saved at its next version; the answer that
completes the yeses saves the new game in the same transaction. Of two processes racing to
make it, the store lets one through; the other decides again on the newer rematch, which is
made, and creates nothing (docs/matchmaking.md, "Rematch").
"""

from __future__ import annotations

import random
import secrets
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Literal

import msgspec
from eventsourcing.persistence import IntegrityError

from domain import game
from domain.aggregate import GameAggregate
from domain.fairness import SEED_BYTES
from domain.game_state import GameState
from domain.matchmaking import rematch as rematches
from domain.matchmaking.rematch import RematchAggregate, RematchState
from domain.seating import SeatedBot, creation_actor
from service.application.commands import bot_seat, new_command_id, seat_holder
from service.application.matchmaking import (
    BACKOFF_SECONDS,
    MAX_ATTEMPTS,
    check_room,
    nearest_level,
)
from service.application.queries import GameQueries
from service.auth import Principal
from service.errors import TOO_MUCH_CONTENTION
from service.store.event_store import Store
from service.store.games import Games
from service.store.troubles import UNHEARD, Troubles


class RematchStatus(msgspec.Struct, frozen=True, kw_only=True):
    """An ended game's rematch: ``none`` (nobody offered), ``offered`` (waiting for
    ``waiting_for``), ``declined`` (by ``declined_by``) or ``made`` (``new_game_id``)."""

    game_id: str
    status: Literal["none", "offered", "declined", "made"]
    offered_by: str | None = None
    accepted: list[str] = msgspec.field(default_factory=list)
    waiting_for: list[str] = msgspec.field(default_factory=list)
    declined_by: str | None = None
    new_game_id: str | None = None


def status_of(state: RematchState, ended: GameState) -> RematchStatus:
    if state.new_game_id is not None:
        status: Literal["none", "offered", "declined", "made"] = "made"
    elif state.declined_by is not None:
        status = "declined"
    elif state.offered_by is not None:
        status = "offered"
    else:
        status = "none"
    people = rematches.persons(ended)
    return RematchStatus(
        game_id=state.game_id,
        status=status,
        offered_by=state.offered_by,
        accepted=[player for player in people if player in state.accepted],
        waiting_for=(
            [player for player in people if player not in state.accepted]
            if status == "offered"
            else []
        ),
        declined_by=state.declined_by,
        new_game_id=state.new_game_id,
    )


Decide = Callable[[RematchAggregate, GameState, datetime], None]


class Rematches:
    def __init__(
        self,
        store: Store,
        games: Games,
        queries: GameQueries,
        clock: Callable[[], datetime],
        *,
        max_active_games: int,
        troubles: Troubles = UNHEARD,
    ) -> None:
        self._store = store
        self._games = games
        self._queries = queries
        self.max_active_games = max_active_games
        self._clock = clock
        self._troubles = troubles

    def accept(self, principal: Principal, game_id: uuid.UUID, client_seed: str) -> RematchStatus:
        """Offer the rematch, or accept the one offered; the last yes makes the new game."""
        player_id = seat_holder(principal)

        def decide(rematch: RematchAggregate, ended: GameState, now: datetime) -> None:
            answer = rematches.say_yes(
                rematch.state,
                ended,
                player_id=player_id,
                name=principal.name,
                client_seed=client_seed,
            )
            rematch.record(answer, now)

        return self._settle(game_id, decide)

    def decline(self, principal: Principal, game_id: uuid.UUID) -> RematchStatus:
        """Decline the offer, or withdraw one's own: the rematch is off."""
        player_id = seat_holder(principal)

        def decide(rematch: RematchAggregate, ended: GameState, now: datetime) -> None:
            rematch.record(rematches.say_no(rematch.state, ended, player_id=player_id), now)

        return self._settle(game_id, decide)

    def status(self, game_id: uuid.UUID) -> RematchStatus:
        ended = self._games.fresh(game_id).state
        rematch = self._rematch(ended.game_id)
        return status_of(rematch.state, ended)

    def _rematch(self, game_id: str) -> RematchAggregate:
        return RematchAggregate.opened(game_id, self._store.rematch_events(game_id), self._clock())

    def _settle(self, game_id: uuid.UUID, decide: Decide) -> RematchStatus:
        """Decide on the rematch as stored and save it (with the new game, once everyone said
        yes) at its next version; a racing write makes it decide again."""
        ended = self._games.fresh(game_id).state  # an ended game changes no more
        for attempt in range(MAX_ATTEMPTS):
            now = self._clock()
            rematch = self._rematch(ended.game_id)
            decide(rematch, ended, now)
            made = None
            if rematches.agreed(rematch.state, ended):
                self._check_room(ended)
                new_id = uuid.uuid4()
                made = seat_rematch(ended, rematch.state, new_id, now)
                rematch.record(rematches.RematchMade(game_id=str(new_id)), now)
            try:
                self._store.save(rematch, *([made] if made is not None else []))
            except IntegrityError:
                self._troubles.retry("rematch_conflict")
                time.sleep(BACKOFF_SECONDS * (attempt + 1) * random.random())
                continue
            if made is not None:
                self._games.remember(made)
            return status_of(rematch.state, ended)
        raise TOO_MUCH_CONTENTION("the rematch changed too often; try again")

    def _check_room(self, ended: GameState) -> None:
        """The yes that would make the new game is refused (409 ``too_many_games``) while a
        person to be seated already sits at the most games not over, as a queue's join is."""
        for _, seat in ended.taken:
            if seat.bot is None:
                whose = f"{seat.name} sits"
                check_room(self._queries, seat.player_id, self.max_active_games, whose=whose)


def seat_rematch(
    ended: GameState, agreed: RematchState, game_id: uuid.UUID, now: datetime
) -> GameAggregate:
    """The new game: same variant, seat count and options; everyone one seat on, bots at their
    rotated seats with their levels (the nearest one the variant still has), each person
    with the client seed of their yes. The first person by new seat creates it, the others
    join in seat order (each takes the lowest free seat: their own); the last starts it."""
    count = ended.seat_count
    bots = []
    people: list[tuple[int, str, str]] = []  # (new seat, player id, name)
    for seat, info in ended.taken:
        moved = rematches.rotated(seat, count)
        if info.bot is not None:
            level = nearest_level(ended.variant, info.bot.level)
            bots.append(SeatedBot(bot=bot_seat(ended.variant, level), seat=moved))
        else:
            people.append((moved, info.player_id, info.name))
    people.sort()
    _, first_id, first_name = people[0]
    events = game.create(
        game_id=str(game_id),
        variant_id=ended.variant,
        seat_count=count,
        options=ended.options,
        creator_id=first_id,
        creator_name=first_name,
        client_seed=agreed.accepted[first_id],
        seed=secrets.token_bytes(SEED_BYTES),
        bots=bots,
        now=now,
        rematch_of=ended.game_id,
    )
    made = GameAggregate.open(
        game_id, events, actor=creation_actor(events), command_id=new_command_id(), now=now
    )
    for _, player_id, name in people:
        if made.state.seat_of(player_id) is None:  # the creator sits unless a bot took seat 0
            made.join(
                player_id=player_id,
                name=name,
                client_seed=agreed.accepted[player_id],
                command_id=new_command_id(),
                now=now,
            )
    return made
