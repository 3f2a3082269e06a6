"""The application's use cases: one method per thing a client can do. Plain values in and out."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from domain import game
from domain.aggregate import GameAggregate, Recorded, project
from domain.commands import COMMON_COMMANDS, Command, parse_command
from domain.errors import RuleViolation
from domain.fairness import SEED_BYTES
from domain.perspective import Perspective
from projections.events import event_out
from service.auth import ADMIN, Principal
from service.background.read_models import ReadModels
from service.errors import ApiError
from service.live.changes import Changes
from service.live.feeds import Feeds
from service.live.tickets import StreamTicket, TicketBook
from service.perspectives import viewer_perspective
from service.players import Players
from service.queries import GameQueries
from service.results import CommandResult, Idempotency, RegisteredPlayer
from service.settings import Settings
from service.store.event_store import Store
from service.store.games import Games
from service.store.records import CommandReceipt, Record, receipt_id_for
from service.telemetry import Outcome, Telemetry, command_type, variant_label

MAX_ATTEMPTS = 8
Decide = Callable[[GameAggregate], list[Recorded]]
Settled = tuple[CommandResult, Outcome]  # the answer and the outcome counted for it


def now_utc() -> datetime:
    return datetime.now(UTC)


class Cardledger(GameQueries):
    def __init__(self, settings: Settings, clock: Callable[[], datetime] = now_utc) -> None:
        self.settings = settings
        self.clock = clock
        self.store = Store(env=settings.store_env())
        self.games = Games(self.store, settings.cached_games)
        self.players = Players(self.store, clock, settings.admin_token)
        self.read_models = ReadModels(self.store, capacity=settings.cached_games)
        self.changes = Changes()
        self.feeds = Feeds(self.games)
        self.tickets = TicketBook(self.store, self.clock)
        self.telemetry = Telemetry(open_streams=self.feeds.streams)
        self.store.report_to(self.telemetry)

    def close(self) -> None:
        self.store.close()

    # --- players -------------------------------------------------------------------------------

    def register_player(self, name: str) -> RegisteredPlayer:
        return self.players.register(name)

    def authenticate(self, token: str) -> Principal:
        return self.players.authenticate(token)

    # --- live streams ----------------------------------------------------------------------------

    def stream_ticket(self, principal: Principal, game_id: UUID) -> StreamTicket:
        self.load(game_id)
        holder = principal.player_id or "admin"
        return self.tickets.issue(holder, str(game_id), self.clock())

    def ticket_holder(self, ticket: str, game_id: UUID) -> Principal:
        holder = self.tickets.redeem(ticket, str(game_id), self.clock())
        return ADMIN if holder == "admin" else Principal(player_id=holder, name="")

    # --- games: writes -------------------------------------------------------------------------

    def create_game(
        self,
        principal: Principal,
        *,
        variant: str,
        seats: int,
        options: dict[str, Any] | None,
        client_seed: str,
        idempotency: Idempotency | None,
    ) -> CommandResult:
        player_id = self._player_id(principal)
        counted = variant_label(variant)
        try:
            result, outcome = self._create(
                principal, player_id, variant, seats, options, client_seed, idempotency
            )
        except (RuleViolation, ApiError) as refusal:
            self.telemetry.refused(counted, "create", refusal.code)
            raise
        except Exception:
            self.telemetry.command(counted, "create", Outcome.FAILED)
            raise
        self.telemetry.command(counted, "create", outcome)
        return result

    def _create(
        self,
        principal: Principal,
        player_id: str,
        variant: str,
        seats: int,
        options: dict[str, Any] | None,
        client_seed: str,
        idempotency: Idempotency | None,
    ) -> Settled:
        game_id = uuid.uuid4()
        try:
            events = game.create(
                game_id=str(game_id),
                variant_id=variant,
                seat_count=seats,
                options=options,
                creator_id=player_id,
                creator_name=principal.name,
                client_seed=client_seed,
                seed=secrets.token_bytes(SEED_BYTES),
            )
        except RuleViolation:
            replayed = self._replayed(player_id, "create", idempotency)
            if replayed is not None:
                return replayed, Outcome.REPLAYED
            raise
        aggregate = GameAggregate.open(
            game_id, events, actor="seat:0", command_id=uuid.uuid4().hex, now=self.clock()
        )
        recorded: list[Recorded] = list(aggregate.pending_events)  # type: ignore[arg-type]
        try:
            self._save(aggregate, player_id, "create", idempotency, from_version=0)
        except IntegrityError:
            # The game id is new, so only the receipt can clash: the same key was used before.
            replayed = self._replayed(player_id, "create", idempotency)
            if replayed is None:
                raise
            return replayed, Outcome.REPLAYED
        return self._result(aggregate, recorded, Perspective(seat=0)), Outcome.APPLIED

    def join_game(
        self,
        principal: Principal,
        game_id: UUID,
        *,
        client_seed: str,
        idempotency: Idempotency | None,
    ) -> CommandResult:
        player_id = self._player_id(principal)

        def decide(aggregate: GameAggregate) -> list[Recorded]:
            return aggregate.join(
                player_id=player_id,
                name=principal.name,
                client_seed=client_seed,
                command_id=uuid.uuid4().hex,
                now=self.clock(),
            )

        return self._execute(
            principal, game_id, decide, "join", idempotency=idempotency, if_match=None
        )

    def send_command(
        self,
        principal: Principal,
        game_id: UUID,
        body: object,
        *,
        idempotency: Idempotency | None,
        if_match: int | None,
    ) -> CommandResult:
        player_id = self._player_id(principal)
        command: Command | None = None

        def decide(aggregate: GameAggregate) -> list[Recorded]:
            nonlocal command
            if command is None:
                rules = aggregate.state.rules
                command = parse_command((*COMMON_COMMANDS, *rules.commands), body)
            return aggregate.act(
                player_id=player_id, command=command, command_id=uuid.uuid4().hex, now=self.clock()
            )

        kind = command_type(body)
        return self._execute(
            principal, game_id, decide, kind, idempotency=idempotency, if_match=if_match
        )

    def cancel_game(
        self, principal: Principal, game_id: UUID, *, idempotency: Idempotency | None
    ) -> CommandResult:
        by = "admin" if principal.admin else "creator"

        def decide(aggregate: GameAggregate) -> list[Recorded]:
            return aggregate.cancel(
                by=by, player_id=principal.player_id, command_id=uuid.uuid4().hex, now=self.clock()
            )

        return self._execute(
            principal, game_id, decide, "cancel", idempotency=idempotency, if_match=None
        )

    def expire(self, game_id: UUID) -> int:
        """Apply the game's deadline if it has passed; returns the number of events written."""

        def decide(aggregate: GameAggregate) -> list[Recorded]:
            return aggregate.expire(command_id=uuid.uuid4().hex, now=self.clock())

        result = self._execute(ADMIN, game_id, decide, "expire", idempotency=None, if_match=None)
        return len(result.events)

    def _execute(
        self,
        principal: Principal,
        game_id: UUID,
        decide: Decide,
        command: str,
        *,
        idempotency: Idempotency | None,
        if_match: int | None,
    ) -> CommandResult:
        """Settle the command on the game, its outcome counted by variant and ``command``."""
        known = self.games.cached(game_id)
        variant = known.variant_id
        try:
            settled = self._settle(principal, known, decide, idempotency, if_match)
        except (RuleViolation, ApiError) as refusal:
            self.telemetry.refused(variant, command, refusal.code)
            raise
        except Exception:
            self.telemetry.command(variant, command, Outcome.FAILED)
            raise
        if settled is None:
            self.telemetry.command(variant, command, Outcome.CONTENDED)
            raise ApiError(503, "too_much_contention", "the game changed too often; try again")
        result, outcome = settled
        self.telemetry.command(variant, command, outcome)
        return result

    def _settle(
        self,
        principal: Principal,
        known: GameAggregate,
        decide: Decide,
        idempotency: Idempotency | None,
        if_match: int | None,
    ) -> Settled | None:
        """Decide on this process's copy of the game and save at once: the store's version
        check is the concurrency check. A conflict, a refusal or a decision to do nothing is
        first confirmed on the game as stored, and decided again if the copy was behind.
        None if the game changed under every attempt."""
        game_id = known.id
        scope = f"game:{game_id}"
        actor_id = principal.player_id or "admin"
        for _ in range(MAX_ATTEMPTS):
            work = self.games.fork(known)
            try:
                self._check_if_match(work, if_match)
                recorded = decide(work)
            except (RuleViolation, ApiError):
                current = self.games.fresh(game_id, known)
                if current.version != known.version:
                    self.telemetry.retry("stale_copy")
                    known = current
                    continue
                replayed = self._replayed(actor_id, scope, idempotency)
                if replayed is not None:
                    return replayed, Outcome.REPLAYED  # a retry of a request already carried out
                raise
            if not recorded:
                current = self.games.fresh(game_id, known)
                if current.version != known.version:
                    self.telemetry.retry("stale_copy")
                    known = current
                    continue
                outcome = Outcome.UNCHANGED
            else:
                try:
                    self._save(work, actor_id, scope, idempotency, from_version=known.version)
                except IntegrityError:
                    replayed = self._replayed(actor_id, scope, idempotency)
                    if replayed is not None:
                        return replayed, Outcome.REPLAYED
                    self.telemetry.retry("version_conflict")
                    known = self.games.fresh(game_id, known)
                    continue
                self.games.remember(work)
                self.feeds.offer(work, recorded)
                outcome = Outcome.APPLIED
            return self._result(work, recorded, viewer_perspective(work.state, principal)), outcome
        return None

    @staticmethod
    def _check_if_match(aggregate: GameAggregate, if_match: int | None) -> None:
        if if_match is not None and aggregate.version != if_match:
            raise ApiError(
                412,
                "version_mismatch",
                f"the game is at version {aggregate.version}, not {if_match}",
                version=aggregate.version,
            )

    def _save(
        self,
        aggregate: GameAggregate,
        actor_id: str,
        scope: str,
        idempotency: Idempotency | None,
        *,
        from_version: int,
    ) -> None:
        """The game's new events and, for a keyed request, its receipt, in one transaction."""
        records: list[Any] = [aggregate]
        if idempotency is not None:
            receipt = CommandReceipt(
                request_digest=idempotency.digest,
                game_id=str(aggregate.id),
                from_version=from_version,
                to_version=aggregate.version,
                chain_head=aggregate.chain_head,
            )
            receipt_id = receipt_id_for(actor_id, scope, idempotency.key)
            records.append(Record.new(receipt_id, receipt, self.clock()))
        self.store.save(*records)
        self.changes.notify()

    def _replayed(
        self, actor_id: str, scope: str, idempotency: Idempotency | None
    ) -> CommandResult | None:
        """The original answer to a request already carried out with this Idempotency-Key."""
        if idempotency is None:
            return None
        try:
            record: Any = self.store.repository.get(
                receipt_id_for(actor_id, scope, idempotency.key), projector_func=project
            )
        except AggregateNotFoundError:
            return None
        receipt = record.payload
        assert isinstance(receipt, CommandReceipt)
        if receipt.request_digest != idempotency.digest:
            raise ApiError(
                422,
                "idempotency_key_reused",
                "this Idempotency-Key was used with a different request",
            )
        game_id = UUID(receipt.game_id)
        aggregate = self.store.repository.get(
            game_id, version=receipt.to_version, projector_func=project
        )
        principal = ADMIN if actor_id == "admin" else Principal(player_id=actor_id, name="")
        recorded = self.recorded(game_id, receipt.from_version, receipt.to_version)
        perspective = viewer_perspective(aggregate.state, principal)
        then = recorded[-1].timestamp if recorded else None
        return self._result(aggregate, recorded, perspective, then)

    def _result(
        self,
        aggregate: GameAggregate,
        recorded: list[Recorded],
        perspective: Perspective,
        now: datetime | None = None,
    ) -> CommandResult:
        """The answer to a command: the events it recorded and the view after them, as of
        ``now`` (the moment of the answer; a replayed answer is as of the original's)."""
        return CommandResult(
            game_id=str(aggregate.id),
            seat=perspective.seat,
            version=aggregate.version,
            chain_head=aggregate.chain_head,
            events=[event_out(event, perspective) for event in recorded],
            view=self.view_of(aggregate, perspective, now),
        )

    @staticmethod
    def _player_id(principal: Principal) -> str:
        if principal.player_id is None:
            raise ApiError(403, "players_only", "the operator token cannot take a seat or play")
        return principal.player_id
