"""The process's copies of its games, close to the code: the newest copy stays whoever offers an
older one (a thread that loaded the game before another saved it), and receipts are kept per
scope, so one Idempotency-Key may serve a creation and a command on another game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest

from service.application import Cardledger
from service.auth import Principal
from service.settings import Settings
from service.store.receipts import Idempotency, ReceiptKey


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Cardledger]:
    """The cache does not depend on the store: SQLite will do."""
    app = Cardledger(Settings(data_dir=tmp_path, projector="external"))
    yield app
    app.close()


def players(ledger: Cardledger, count: int) -> list[Principal]:
    registered = [ledger.players.register(f"Player {n}") for n in range(count)]
    return [Principal(player_id=p.player_id, name=p.name) for p in registered]


def new_game(ledger: Cardledger, creator: Principal) -> UUID:
    created = ledger.commands.create(
        creator, variant="open-hand", seats=2, options={}, client_seed="", idempotency=None
    )
    return UUID(created.game_id)


def test_an_older_copy_never_replaces_a_newer_one(ledger: Cardledger) -> None:
    ann, ben = players(ledger, 2)
    game_id = new_game(ledger, ann)
    older = ledger.games.cached(game_id)
    ledger.commands.join(ben, game_id, client_seed="", idempotency=None)
    newer = ledger.games.cached(game_id)
    assert newer.version > older.version
    ledger.games.remember(older)
    assert ledger.games.cached(game_id) is newer
    ledger.games.remember(ledger.games.fork(newer))  # as new as the copy: either will do
    assert ledger.games.cached(game_id).version == newer.version


def test_a_newer_copy_replaces_an_older_one(ledger: Cardledger) -> None:
    ann, ben = players(ledger, 2)
    game_id = new_game(ledger, ann)
    older = ledger.games.fork(ledger.games.cached(game_id))
    ledger.commands.join(ben, game_id, client_seed="", idempotency=None)
    newer = ledger.games.cached(game_id)
    ledger.games.remember(older)
    assert ledger.games.cached(game_id) is newer


def test_a_receipt_belongs_to_its_scope() -> None:
    idempotency = Idempotency(key="k-1", digest="d")
    create = ReceiptKey("player-1", "create", idempotency)
    play = ReceiptKey("player-1", "game:6f1b0000-0000-4000-8000-000000000000", idempotency)
    elsewhere = ReceiptKey("player-1", "game:6f1b0000-0000-4000-8000-000000000001", idempotency)
    someone_else = ReceiptKey("player-2", "create", idempotency)
    ids = {key.receipt_id for key in (create, play, elsewhere, someone_else)}
    assert len(ids) == 4
    assert create.receipt_id == ReceiptKey("player-1", "create", idempotency).receipt_id


def test_one_key_serves_a_creation_and_a_command_on_another_game(ledger: Cardledger) -> None:
    ann, ben = players(ledger, 2)
    key = Idempotency(key="same-key", digest="creation")
    created = ledger.commands.create(
        ann, variant="open-hand", seats=2, options={}, client_seed="", idempotency=key
    )
    other = new_game(ledger, ben)
    joined = ledger.commands.join(
        ann, other, client_seed="", idempotency=Idempotency(key="same-key", digest="join")
    )
    assert joined.game_id == str(other) != created.game_id
    assert joined.seat == 1 and joined.events
    assert ledger.games.fresh(other).version == joined.version
