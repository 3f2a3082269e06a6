"""The use cases that write to a game: create, join, command, cancel, and the server's expiry.

Each decides with the rules and hands the decision to the store's unit of work, which owns the
optimistic loop and the receipts; each is counted by what became of it.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, NamedTuple
from uuid import UUID

from bots.contract import ALGORITHM
from bots.levels import available_levels
from domain import game
from domain.aggregate import GameAggregate, Recorded
from domain.commands import COMMON_COMMANDS, Command, parse_command
from domain.events import (
    BotSeat,
    CancelledBy,
    GameCancelled,
    GameCreated,
    GameFinished,
    SeatTaken,
    tag_of,
)
from domain.fairness import SEED_BYTES
from domain.perspective import Perspective
from domain.seating import SeatedBot, creation_actor
from domain.variants import variant_by_id
from projections.events import event_out
from service.application.perspectives import viewer_perspective
from service.application.queries import RenderedViews
from service.application.results import CommandResult
from service.application.telemetry import Telemetry, command_type, variant_label
from service.auth import ADMIN, Principal
from service.errors import PLAYERS_ONLY, UNKNOWN_LEVEL, VERSION_MISMATCH
from service.store.receipts import Idempotency, ReceiptKey
from service.store.unit_of_work import Decide, Outcome, Settled, UnitOfWork

CREATE_SCOPE = "create"


def new_command_id() -> str:
    return uuid.uuid4().hex


def bot_command_id(game_id: UUID, seat: int, version: int) -> str:
    """The command id of the bot at ``seat`` acting on the game at ``version``: the same in
    every process, so two that send the bot's turn send the same command."""
    return hashlib.sha256(
        f"cardledger/bot-command/{game_id}/{seat}/{version}".encode()
    ).hexdigest()[:32]


class BotRequest(NamedTuple):
    """A bot asked for: its level, at ``seat`` or (None) the lowest free seat."""

    level: int
    seat: int | None = None


def bot_seat(variant: str, level: int) -> BotSeat:
    """A bot of ``level`` as today's algorithm plays it for ``variant`` (a registered one), or
    422 ``unknown_level`` naming the levels the variant has."""
    levels = available_levels(variant)
    if level not in levels:
        raise UNKNOWN_LEVEL(f"{variant} has no bot of level {level}", levels=list(levels))
    return BotSeat(level=level, algorithm=ALGORITHM)


class GameCommands:
    def __init__(
        self,
        writes: UnitOfWork,
        telemetry: Telemetry,
        clock: Callable[[], datetime],
        views: RenderedViews,
    ) -> None:
        self._views = views
        self._writes = writes
        self._telemetry = telemetry
        self._clock = clock

    def create(
        self,
        principal: Principal,
        *,
        variant: str,
        seats: int,
        options: dict[str, Any] | None,
        client_seed: str,
        idempotency: Idempotency | None,
        bots: Sequence[BotRequest] = (),
    ) -> CommandResult:
        player_id = seat_holder(principal)

        def make() -> GameAggregate:
            game_id = uuid.uuid4()
            now = self._clock()
            events = game.create(
                game_id=str(game_id),
                variant_id=variant,
                seat_count=seats,
                options=options,
                creator_id=player_id,
                creator_name=principal.name,
                client_seed=client_seed,
                seed=secrets.token_bytes(SEED_BYTES),
                bots=[
                    SeatedBot(bot=bot_seat(variant_by_id(variant).id, bot.level), seat=bot.seat)
                    for bot in bots
                ],
                now=now,
            )
            actor = creation_actor(events)
            return GameAggregate.open(
                game_id, events, actor=actor, command_id=new_command_id(), now=now
            )

        key = receipt_key(principal, CREATE_SCOPE, idempotency)
        with self._telemetry.counting(variant_label(variant), "create") as count:
            settled = self._writes.create(make, key)
            count.outcome = settled.outcome
        return self._answer(settled, principal)

    def join(
        self,
        principal: Principal,
        game_id: UUID,
        *,
        client_seed: str,
        idempotency: Idempotency | None,
    ) -> CommandResult:
        player_id = seat_holder(principal)

        def decide(aggregate: GameAggregate) -> list[Recorded]:
            return aggregate.join(
                player_id=player_id,
                name=principal.name,
                client_seed=client_seed,
                command_id=new_command_id(),
                now=self._clock(),
            )

        return self._settle(principal, game_id, "join", decide, idempotency)

    def send(
        self,
        principal: Principal,
        game_id: UUID,
        body: object,
        *,
        idempotency: Idempotency | None,
        if_match: int | None,
    ) -> CommandResult:
        player_id = seat_holder(principal)
        kind = command_type(body)  # counted by the type sent, even if it does not parse
        parsed: list[Command] = []  # parsed once, on the first attempt

        def decide(aggregate: GameAggregate) -> list[Recorded]:
            if if_match is not None and aggregate.version != if_match:
                raise VERSION_MISMATCH(
                    f"the game is at version {aggregate.version}, not {if_match}",
                    version=aggregate.version,
                )
            if not parsed:
                rules = aggregate.state.rules
                parsed.append(parse_command((*COMMON_COMMANDS, *rules.commands), body))
            return aggregate.act(
                player_id=player_id,
                command=parsed[0],
                command_id=new_command_id(),
                now=self._clock(),
            )

        return self._settle(principal, game_id, kind, decide, idempotency)

    def add_bot(
        self,
        principal: Principal,
        game_id: UUID,
        bot: BotRequest,
        *,
        idempotency: Idempotency | None,
    ) -> CommandResult:
        """The creator seats a bot before the start."""
        player_id = seat_holder(principal)

        def decide(aggregate: GameAggregate) -> list[Recorded]:
            return aggregate.add_bot(
                player_id=player_id,
                seat=bot.seat,
                bot=bot_seat(aggregate.state.variant, bot.level),
                command_id=new_command_id(),
                now=self._clock(),
            )

        return self._settle(principal, game_id, "add_bot", decide, idempotency)

    def play_bot(
        self, game_id: UUID, seat: int, command: Command, *, version: int, now: datetime
    ) -> Outcome:
        """The bot at ``seat`` sends ``command``, decided on the game at ``version`` at ``now``
        (recorded as of ``now``, so the audit re-runs the decision at that moment). Written
        only on the game at that version: whichever process sends a bot's turn, once."""

        def decide(aggregate: GameAggregate) -> list[Recorded]:
            if aggregate.version != version:
                raise VERSION_MISMATCH(
                    f"the game is at version {aggregate.version}, not {version}",
                    version=aggregate.version,
                )
            return aggregate.act(
                player_id=aggregate.state.seat(seat).player_id,
                command=command,
                command_id=bot_command_id(game_id, seat, version),
                now=now,
            )

        known = self._writes.game(game_id)
        with self._telemetry.counting(known.variant_id, tag_of(command)) as count:
            settled = self._writes.settle(known, decide, None)
            count.outcome = settled.outcome
        return settled.outcome

    def cancel(
        self, principal: Principal, game_id: UUID, *, idempotency: Idempotency | None
    ) -> CommandResult:
        by: CancelledBy = "admin" if principal.admin else "creator"

        def decide(aggregate: GameAggregate) -> list[Recorded]:
            return aggregate.cancel(
                by=by, player_id=principal.player_id, command_id=new_command_id(), now=self._clock()
            )

        return self._settle(principal, game_id, "cancel", decide, idempotency)

    def expire(self, game_id: UUID) -> int:
        """Apply the game's deadline if it has passed; returns the number of events written."""

        def decide(aggregate: GameAggregate) -> list[Recorded]:
            return aggregate.expire(command_id=new_command_id(), now=self._clock())

        return len(self._settle(ADMIN, game_id, "expire", decide, None).events)

    def _settle(
        self,
        principal: Principal,
        game_id: UUID,
        command: str,
        decide: Decide,
        idempotency: Idempotency | None,
    ) -> CommandResult:
        """Decide on the game and save, counted by the game's variant and ``command``."""
        known = self._writes.game(game_id)
        key = receipt_key(principal, f"game:{game_id}", idempotency)
        with self._telemetry.counting(known.variant_id, command) as count:
            settled = self._writes.settle(known, decide, key)
            count.outcome = settled.outcome
        return self._answer(settled, principal)

    def _answer(self, settled: Settled, principal: Principal) -> CommandResult:
        """The events the command recorded and the view after them, as the caller sees them,
        as of the moment of the answer (a replayed answer is as of the original's)."""
        aggregate = settled.game
        perspective: Perspective = viewer_perspective(aggregate.state, principal)
        return CommandResult(
            game_id=aggregate.state.game_id,
            seat=perspective.seat,
            version=aggregate.version,
            chain_head=aggregate.chain_head,
            events=[event_out(event, perspective) for event in settled.recorded],
            view=self._views.view(aggregate, perspective, settled.at or self._clock()),
            log=f"/games/{aggregate.id}/log" if _logged(settled.recorded) else None,
        )


def _logged(recorded: Sequence[Recorded]) -> bool:
    """Whether these events give a player a receipt from the witnessed log: the game's creation
    (its commitment, which a seated player holds the log to), a seat taken, its end."""
    return any(
        isinstance(event.payload, (GameCreated, SeatTaken, GameFinished, GameCancelled))
        for event in recorded
    )


def seat_holder(principal: Principal) -> str:
    """The player's id: only players take seats and play."""
    if principal.player_id is None:
        raise PLAYERS_ONLY("the operator token cannot take a seat or play")
    return principal.player_id


def receipt_key(
    principal: Principal, scope: str, idempotency: Idempotency | None
) -> ReceiptKey | None:
    return None if idempotency is None else ReceiptKey(principal.actor_id, scope, idempotency)
