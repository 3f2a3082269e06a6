"""The application's use cases: one method per thing a client can do. Plain values in and out."""

from __future__ import annotations

import secrets
import unicodedata
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
from domain.errors import invalid
from domain.fairness import SEED_BYTES
from domain.perspective import FULL, Perspective
from domain.variants import VARIANTS, variant_by_id
from projections.audit import AuditReport, audit
from projections.events import event_out
from projections.lobby import LobbyEntry
from projections.replay import frames
from projections.scoreboard import Scoreboard
from projections.views import View, view
from service.auth import ADMIN, Principal, is_admin_token, new_token, token_hash
from service.background.read_models import ReadModels
from service.bundle import FORMAT as BUNDLE_FORMAT
from service.bundle import Bundle
from service.errors import ApiError, not_found, unauthorized
from service.live.tickets import StreamTicket, TicketBook
from service.live.wakeups import Wakeup
from service.perspectives import replay_perspective, viewer_perspective
from service.results import (
    CommandResult,
    EventPage,
    Idempotency,
    Leaderboard,
    RegisteredPlayer,
    ReplayPage,
)
from service.settings import Settings
from service.store.events import Store
from service.store.records import (
    CommandReceipt,
    PlayerRegistered,
    Record,
    player_id_for,
    receipt_id_for,
)

MAX_ATTEMPTS = 8
LOBBY_LIMIT = 500
MAX_NAME = 64
PLAYER_CACHE = 10_000


def clean_name(name: str) -> str:
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME or any(
        unicodedata.category(ch).startswith("C") for ch in name
    ):
        raise invalid("invalid_name", f"a name is 1 to {MAX_NAME} printable characters")
    return name


def now_utc() -> datetime:
    return datetime.now(UTC)


class Cardledger:
    def __init__(self, settings: Settings, clock: Callable[[], datetime] = now_utc) -> None:
        self.settings = settings
        self.clock = clock
        self.store = Store(env=settings.store_env())
        self._players: dict[str, Principal] = {}
        self.read_models = ReadModels(self.store, self.load)
        self.changes = Wakeup()
        self.tickets = TicketBook(self.store, self.clock)

    def close(self) -> None:
        self.store.close()

    # --- players -------------------------------------------------------------------------------

    def register_player(self, name: str) -> RegisteredPlayer:
        name = clean_name(name)
        token = new_token()
        digest = token_hash(token)
        player_id = player_id_for(digest)
        record = Record.new(player_id, PlayerRegistered(name=name, token_hash=digest), self.clock())
        self.store.save(record)
        return RegisteredPlayer(player_id=str(player_id), name=name, token=token)

    def authenticate(self, token: str) -> Principal:
        if is_admin_token(token, self.settings.admin_token):
            return ADMIN
        digest = token_hash(token)
        cached = self._players.get(digest)
        if cached is not None:
            return cached
        record = self._get(player_id_for(digest), Record)
        if record is None or not isinstance(record.payload, PlayerRegistered):
            raise unauthorized("unknown or revoked token")
        principal = Principal(player_id=str(record.id), name=record.payload.name)
        if len(self._players) >= PLAYER_CACHE:
            self._players.clear()  # players never change: forgetting them only costs a lookup
        self._players[digest] = principal
        return principal

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
        if idempotency is not None:
            replayed = self._replay(player_id, "create", idempotency)
            if replayed is not None:
                return replayed
        game_id = uuid.uuid4()
        now = self.clock()
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
        command_id = uuid.uuid4().hex
        aggregate = GameAggregate.open(
            game_id, events, actor="seat:0", command_id=command_id, now=now
        )
        recorded: list[Recorded] = list(aggregate.pending_events)  # type: ignore[arg-type]
        try:
            self._save(aggregate, player_id, "create", idempotency, from_version=0)
        except IntegrityError:
            # Only the receipt can clash (the game id is new): a concurrent retry won.
            assert idempotency is not None
            replayed = self._replay(player_id, "create", idempotency)
            assert replayed is not None
            return replayed
        return self._result(aggregate, recorded, Perspective(seat=0))

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

        return self._execute(principal, game_id, decide, idempotency=idempotency, if_match=None)

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

        return self._execute(principal, game_id, decide, idempotency=idempotency, if_match=if_match)

    def cancel_game(
        self, principal: Principal, game_id: UUID, *, idempotency: Idempotency | None
    ) -> CommandResult:
        by = "admin" if principal.admin else "creator"

        def decide(aggregate: GameAggregate) -> list[Recorded]:
            return aggregate.cancel(
                by=by, player_id=principal.player_id, command_id=uuid.uuid4().hex, now=self.clock()
            )

        return self._execute(principal, game_id, decide, idempotency=idempotency, if_match=None)

    def expire(self, game_id: UUID) -> int:
        """Apply the game's deadline if it has passed; returns the number of events written."""

        def decide(aggregate: GameAggregate) -> list[Recorded]:
            return aggregate.expire(command_id=uuid.uuid4().hex, now=self.clock())

        return len(self._execute(ADMIN, game_id, decide, idempotency=None, if_match=None).events)

    def deadline(self, game_id: UUID) -> datetime | None:
        state = self.load(game_id).state
        return state.rules.deadline(state.table) if state.status == "active" else None

    def _execute(
        self,
        principal: Principal,
        game_id: UUID,
        decide: Callable[[GameAggregate], list[Recorded]],
        *,
        idempotency: Idempotency | None,
        if_match: int | None,
    ) -> CommandResult:
        """Load, decide, save; on a concurrent write, decide again on the new state."""
        scope = f"game:{game_id}"
        actor_id = principal.player_id or "admin"
        for _ in range(MAX_ATTEMPTS):
            if idempotency is not None:
                replayed = self._replay(actor_id, scope, idempotency)
                if replayed is not None:
                    return replayed
            aggregate = self.load(game_id)
            if if_match is not None and aggregate.version != if_match:
                raise ApiError(
                    412,
                    "version_mismatch",
                    f"the game is at version {aggregate.version}, not {if_match}",
                    version=aggregate.version,
                )
            from_version = aggregate.version
            recorded = decide(aggregate)
            if recorded:
                try:
                    self._save(aggregate, actor_id, scope, idempotency, from_version=from_version)
                except IntegrityError:
                    continue
            return self._result(aggregate, recorded, viewer_perspective(aggregate.state, principal))
        raise ApiError(503, "too_much_contention", "the game changed too often; try again")

    def _save(
        self,
        aggregate: GameAggregate,
        actor_id: str,
        scope: str,
        idempotency: Idempotency | None,
        *,
        from_version: int,
    ) -> None:
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

    def _replay(self, actor_id: str, scope: str, idempotency: Idempotency) -> CommandResult | None:
        """The original answer to a request already carried out with this Idempotency-Key."""
        record = self._get(receipt_id_for(actor_id, scope, idempotency.key), Record)
        if record is None:
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
        recorded = self._recorded(game_id, receipt.from_version, receipt.to_version)
        return self._result(aggregate, recorded, viewer_perspective(aggregate.state, principal))

    def _result(
        self, aggregate: GameAggregate, recorded: list[Recorded], perspective: Perspective
    ) -> CommandResult:
        """The answer to a command: the events it recorded and the view after them."""
        return CommandResult(
            game_id=str(aggregate.id),
            version=aggregate.version,
            chain_head=aggregate.chain_head,
            events=[event_out(event, perspective) for event in recorded],
            view=self._view(aggregate, perspective),
        )

    # --- games: reads --------------------------------------------------------------------------

    def load(self, game_id: UUID) -> GameAggregate:
        aggregate: GameAggregate | None = self._get(game_id, GameAggregate)
        if aggregate is None:
            raise not_found("game")
        return aggregate

    def game_view(self, principal: Principal | None, game_id: UUID) -> View:
        aggregate = self.load(game_id)
        return self._view(aggregate, viewer_perspective(aggregate.state, principal))

    def public_view(self, game_id: UUID) -> View:
        aggregate = self.load(game_id)
        return self._view(aggregate, viewer_perspective(aggregate.state, None))

    def events(
        self, principal: Principal | None, game_id: UUID, *, after: int, limit: int
    ) -> EventPage:
        aggregate = self.load(game_id)
        perspective = viewer_perspective(aggregate.state, principal)
        recorded = self._recorded(game_id, after, min(aggregate.version, after + limit))
        page = [event_out(event, perspective) for event in recorded]
        return EventPage(
            game_id=str(game_id),
            events=page,
            next_after=page[-1].version if page else after,
            head_version=aggregate.version,
        )

    def audit(self, game_id: UUID) -> AuditReport:
        """The audit report; checks that need the secret seed stay pending until the game ends."""
        aggregate = self.load(game_id)
        return audit(str(game_id), self._recorded(game_id, 0, aggregate.version))

    def export(self, principal: Principal | None, game_id: UUID) -> Bundle:
        """The whole log, every secret included: once the game is over, or for the operator."""
        aggregate = self.load(game_id)
        if not (aggregate.state.over or (principal is not None and principal.admin)):
            raise ApiError(409, "game_not_over", "a game can be exported once it is over")
        recorded = self._recorded(game_id, 0, aggregate.version)
        return Bundle(
            format=BUNDLE_FORMAT,
            game_id=str(game_id),
            variant=aggregate.state.variant,
            events=[event_out(event, FULL) for event in recorded],
        )

    def replay(
        self,
        principal: Principal | None,
        game_id: UUID,
        *,
        perspective: str,
        start: int,
        limit: int,
    ) -> ReplayPage:
        """Frames from ``start`` on, at most ``limit``, as the perspective may see them."""
        aggregate = self.load(game_id)
        viewer = replay_perspective(aggregate.state, principal, perspective)
        stop = min(aggregate.version, start + limit - 1)
        recorded = self._recorded(game_id, 0, stop)
        page = list(frames(recorded, viewer, start, stop))
        return ReplayPage(
            game_id=str(game_id),
            perspective=perspective,
            frames=page,
            next_from=stop + 1 if stop < aggregate.version else None,
            head_version=aggregate.version,
        )

    def scoreboard(self, game_id: UUID) -> Scoreboard:
        self._refresh_read_models()
        board = self.read_models.scoreboard(game_id)
        if board is None:
            raise not_found("game")
        return board

    def lobby(self, *, status: str | None, variant: str | None) -> list[LobbyEntry]:
        if variant is not None:
            variant_by_id(variant)
        self._refresh_read_models()
        return self.read_models.lobby(status=status, variant=variant, limit=LOBBY_LIMIT)

    def leaderboard(self, variant: str | None) -> list[Leaderboard]:
        chosen = [variant_by_id(variant)] if variant is not None else list(VARIANTS.values())
        self._refresh_read_models()
        return [
            Leaderboard(
                variant=rules.id,
                rows=self.read_models.leaderboard(rules.id, lower_wins=rules.lower_score_wins),
            )
            for rules in chosen
        ]

    def _refresh_read_models(self) -> None:
        """Read your writes: in-process runners catch up before answering."""
        if self.settings.projector == "inline":
            self.read_models.catch_up()

    def ready(self) -> bool:
        self.store.recorder.max_notification_id()
        return True

    def _recorded(self, game_id: UUID, after: int, until: int) -> list[Recorded]:
        if until <= after:
            return []
        return list(self.store.events.get(game_id, gt=after, lte=until))  # type: ignore[arg-type]

    def _view(self, aggregate: GameAggregate, perspective: Perspective) -> View:
        return view(
            aggregate.state,
            version=aggregate.version,
            chain_head=aggregate.chain_head,
            perspective=perspective,
        )

    @staticmethod
    def _player_id(principal: Principal) -> str:
        if principal.player_id is None:
            raise ApiError(403, "players_only", "the operator token cannot take a seat or play")
        return principal.player_id

    def _get(self, aggregate_id: UUID, kind: type[Any]) -> Any:
        try:
            aggregate = self.store.repository.get(aggregate_id, projector_func=project)
        except AggregateNotFoundError:
            return None
        return aggregate if isinstance(aggregate, kind) else None
